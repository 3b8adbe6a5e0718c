/**
 * get-env (both eras): every environment variable of the server process, as pretty-printed JSON.
 * The value of a credential-like name (a KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH
 * or COOKIE segment between underscores, in any case, singular or plural) is "<redacted>" unless
 * GET_ENV_INCLUDE_SECRETS is 1 or true (`everything.getEnvIncludeSecrets`).
 */
import { formatToolResult } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { defineTool } from './define.js';

const CREDENTIAL_SEGMENTS = new Set(['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'AUTH', 'COOKIE']);
export const REDACTED = '<redacted>';

/** Whether a variable name is credential-like: one of its `_`-separated segments is (the plural of) a credential word. */
export function isCredentialName(name: string): boolean {
  return name
    .toUpperCase()
    .split('_')
    .some((segment) => CREDENTIAL_SEGMENTS.has(segment) || (segment.endsWith('S') && CREDENTIAL_SEGMENTS.has(segment.slice(0, -1))));
}

export function maskedEnv(env: NodeJS.ProcessEnv, includeSecrets: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value === undefined) continue;
    out[name] = includeSecrets || !isCredentialName(name) ? value : REDACTED;
  }
  return out;
}

export function getEnv(rt: EverythingRuntime) {
  return defineTool('both', {
    name: 'get-env',
    title: 'Get environment',
    description:
      'Returns all environment variables of the server process as JSON. Values of credential-like names (KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH, COOKIE segments) are redacted unless the server runs with GET_ENV_INCLUDE_SECRETS=1.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    handler: async () => {
      const { getEnvIncludeSecrets } = await rt.settings();
      return formatToolResult(JSON.stringify(maskedEnv(process.env, getEnvIncludeSecrets), null, 2));
    },
  });
}
