/**
 * get-env on a server process started with a known environment: every name is returned, the
 * values of credential-like names are "<redacted>" (2025-11-25, SDK v1), and with
 * GET_ENV_INCLUDE_SECRETS=1 they are returned as they are (2026-07-28, v2 client).
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { v1Http, v2Http } from './helpers/clients.js';
import { startEverything } from './helpers/server-process.js';

const ENV = {
  OPENAI_API_KEY: 'sk-1',
  GITHUB_TOKEN: 'ghp-2',
  db_password: 'pw-3',
  LEGACY_PASSWD: 'pw-4',
  GOOGLE_APPLICATION_CREDENTIALS: '/secret/creds.json',
  BASIC_AUTH: 'user:pw',
  SESSION_COOKIE: 'c-5',
  CLIENT_SECRET: 's-6',
  // Not credential-like: the words are part of a longer segment.
  AUTHOR_NAME: 'Ada',
  KEYBOARD_LAYOUT: 'us',
  TOKENIZER_MODEL: 'bpe',
};
const SECRET_NAMES = ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'db_password', 'LEGACY_PASSWD', 'GOOGLE_APPLICATION_CREDENTIALS', 'BASIC_AUTH', 'SESSION_COOKIE', 'CLIENT_SECRET'];

const envOf = (result: unknown) => JSON.parse((result as { content: Array<{ text: string }> }).content[0]?.text as string) as Record<string, string>;

describe('get-env', () => {
  it('returns every variable, with the values of credential-like names redacted', async () => {
    const server = await startEverything(ENV);
    try {
      const c = await v1Http(server.mcpUrl, {});
      try {
        const env = envOf(await c.client.callTool({ name: 'get-env', arguments: {} }, CallToolResultSchema));
        for (const name of SECRET_NAMES) expect(env[name], name).toBe('<redacted>');
        expect([env.AUTHOR_NAME, env.KEYBOARD_LAYOUT, env.TOKENIZER_MODEL]).toEqual(['Ada', 'us', 'bpe']);
        expect(env.PATH).toBe(process.env.PATH);
      } finally {
        await c.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('with GET_ENV_INCLUDE_SECRETS=1 returns every value unmasked', async () => {
    const server = await startEverything({ ...ENV, GET_ENV_INCLUDE_SECRETS: '1' });
    try {
      const c = await v2Http(server.mcpUrl, {});
      try {
        const env = envOf(await c.client.callTool({ name: 'get-env', arguments: {} }));
        for (const name of SECRET_NAMES) expect(env[name], name).toBe(ENV[name as keyof typeof ENV]);
      } finally {
        await c.close();
      }
    } finally {
      await server.stop();
    }
  });
});
