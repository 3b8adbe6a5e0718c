/**
 * whoami: who is calling, as the access token says — subject, e-mail, client,
 * identity provider, scopes and groups. It needs the `demo:whoami` scope, so
 * it answers only a caller signed in with it (the demo runs without
 * authentication by default: then it is refused with -32001 like any scoped
 * tool; see the README for the enterprise sign-in).
 */
import { formatToolResult, type ITool } from 'fa-mcp-sdk';

export const WHOAMI_SCOPE = 'demo:whoami';

export const whoamiTool: ITool = {
  name: 'whoami',
  title: 'Who am I',
  description: `Tells who is calling: the subject, e-mail, client, identity provider, scopes and groups of the caller's token. Needs the ${WHOAMI_SCOPE} scope.`,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  requiredScopes: [WHOAMI_SCOPE],
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      subject: { type: 'string' },
      email: { type: 'string' },
      client: { type: 'string' },
      identityProvider: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string' } },
      groups: { type: 'array', items: { type: 'string' } },
    },
    required: ['subject', 'scopes', 'groups'],
    additionalProperties: false,
  },
  handler: ({ context }) => {
    // The scope check ran before the handler: a caller is there.
    const auth = context.auth;
    const text = (claim: string) => (typeof auth?.claims[claim] === 'string' ? (auth.claims[claim] as string) : undefined);
    const [email, client, identityProvider] = [text('email'), text('client_id'), text('idp')];
    return formatToolResult({
      subject: auth?.subject ?? '',
      ...(email ? { email } : {}),
      ...(client ? { client } : {}),
      ...(identityProvider ? { identityProvider } : {}),
      scopes: auth?.scopes ?? [],
      groups: auth?.groups ?? [],
    });
  },
};
