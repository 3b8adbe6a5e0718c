/**
 * trigger-url-elicitation (both eras): directs the user to a URL (URL-mode elicitation).
 * 2026-07-28: in-band, an input_required round, with no elicitationId (the requestState
 * correlates the rounds). 2025-era: an elicitation/create request in URL mode with an
 * elicitationId, or with errorPath=true the MCP error -32042 (UrlElicitationRequiredError)
 * naming a prerequisite elicitation at another URL; the retry of the same call (same url and
 * elicitationId on the connection) ignores errorPath once and goes the request path, so the
 * client does not loop on the same error. Needs URL-mode elicitation (-32021 up front otherwise).
 */
import { randomUUID } from 'node:crypto';
import { formatToolResult, ServerError, ToolExecutionError } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { defineTool } from './define.js';

/** JSON-RPC code of UrlElicitationRequiredError (2025-11-25). */
export const URL_ELICITATION_REQUIRED = -32042;
/** Where the error path's prerequisite elicitation sends the user: not the URL of the failing call. */
export const PREREQUISITE_URL = 'https://modelcontextprotocol.io';

export function triggerUrlElicitation(rt: EverythingRuntime) {
  return defineTool('both', {
    name: 'trigger-url-elicitation',
    title: 'Trigger URL elicitation',
    description:
      'Directs the user to a URL (URL-mode elicitation). 2025-era: elicitation/create in URL mode with an elicitationId, or the -32042 error with errorPath=true (its retry proceeds). 2026-07-28: in-band.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    execution: { requiredClientCapabilities: { elicitation: { url: {} } } },
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', default: 'https://modelcontextprotocol.io/specification', description: 'The URL to send the user to' },
        message: { type: 'string', default: 'Please open this page to continue.', description: 'What the user is told' },
        elicitationId: { type: 'string', minLength: 1, maxLength: 200, description: 'The elicitationId to use on a 2025-era connection (default: a new UUID)' },
        errorPath: { type: 'boolean', default: false, description: '2025-era: throw -32042 (UrlElicitationRequiredError) instead of sending the request' },
      },
      additionalProperties: false,
    },
    handler: async ({ arguments: args, client, context, session }) => {
      const url = typeof args.url === 'string' ? args.url : 'https://modelcontextprotocol.io/specification';
      const message = typeof args.message === 'string' ? args.message : 'Please open this page to continue.';
      if (context.era === '2026') {
        const reply = await client.elicit({ mode: 'url', message, url }, { key: 'url' });
        return formatToolResult({ action: String(reply.action), url, elicitationId: null, path: 'in-band' });
      }
      const given = typeof args.elicitationId === 'string' ? args.elicitationId : undefined;
      if (args.errorPath === true) {
        if (!session) throw new ToolExecutionError('The error path needs a session to recognise the retry (a stateless endpoint has none).');
        const marker = given ?? '';
        if (!rt.urlRetries.takeRetry(session, url, marker)) {
          rt.urlRetries.mark(session, url, marker);
          const prerequisite = { mode: 'url', elicitationId: randomUUID(), url: PREREQUISITE_URL, message: `Before ${url} can be used, please open ${PREREQUISITE_URL}.` };
          throw new ServerError('URL elicitation required: complete the prerequisite elicitation, then retry the call.', 400, { elicitations: [prerequisite] }, URL_ELICITATION_REQUIRED);
        }
      }
      const elicitationId = given ?? randomUUID();
      const reply = await client.elicit({ mode: 'url', message, url, elicitationId });
      return formatToolResult({ action: String(reply.action), url, elicitationId, path: args.errorPath === true ? 'retry after -32042' : 'request' });
    },
  });
}
