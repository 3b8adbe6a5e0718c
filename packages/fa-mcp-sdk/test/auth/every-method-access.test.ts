/**
 * Issue 19, tried as an attacker would: every method runs through the one
 * pipeline, so the scope and group checks of prompts and resources hold for
 * completion/complete and subscriptions too, on both eras, on the fast and
 * the SDK path (ALL_TARGETS twins), with and without hideUnauthorized.
 *
 * - completion/complete for a prompt or template the caller may not use
 *   answers as for an unknown one: an empty completion (no values, no hint
 *   that it exists); function sources learn who asks (auth, signal);
 * - resources/subscribe (2025) and a subscriptions/listen filter (2026-07-28)
 *   naming a resource the caller may not read are refused (-32001) and no
 *   update of it is delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES, type ICompletionContext, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, type TestServer } from '../../src/testing/index.js';
import { waitFor } from '../integration/helpers.js';
import { bearer, connectWith, rsaKeyPair, signJwt, startAuthServer, type KeyPair } from './helpers.js';

const ISS = 'https://idp.example.test';
const AUD = 'mcp-every-method';
const SECRET_REPORTS = ['secret-report-alpha', 'secret-report-beta'];

/** Who each function completion source was asked by. */
interface Asked {
  subject: string | null;
  signal: boolean;
}

function reportServer(asked: Asked[]): McpServerData {
  const reportNames = (value: string, ctx: ICompletionContext) => {
    asked.push({ subject: ctx.auth?.subject ?? null, signal: ctx.signal instanceof AbortSignal });
    return SECRET_REPORTS.filter((r) => r.startsWith(value));
  };
  return {
    tools: [{ name: 'open_tool', description: 'open', inputSchema: { type: 'object' }, handler: () => formatToolResult('ok') }],
    prompts: [
      { name: 'open_prompt', content: 'hello', arguments: [{ name: 'topic', complete: ['weather', 'news'] }] },
      { name: 'secret_prompt', requiredScopes: ['reports:read'], content: 'secret', arguments: [{ name: 'report', complete: reportNames }] },
    ],
    resources: [
      { uri: 'test://open', name: 'open', content: 'open doc' },
      { uri: 'test://secret', name: 'secret', requiredScopes: ['reports:read'], content: 'secret doc' },
    ],
    resourceTemplates: [
      { uriTemplate: 'test://reports/{name}', name: 'report', requiredScopes: ['reports:read'], read: (_u, v) => `report ${v.name}`, complete: { name: SECRET_REPORTS } },
    ],
    // The server sends resource updates, so it declares subscriptions (page 02-2).
    capabilities: { subscribe: true },
  };
}

const completePrompt = (c: Client, name: string, arg: string, value = '') =>
  c.complete({ ref: { type: 'ref/prompt', name }, argument: { name: arg, value } }).then((r) => r.completion);
const completeTemplate = (c: Client, uri: string, value = '') =>
  c.complete({ ref: { type: 'ref/resource', uri }, argument: { name: 'name', value } }).then((r) => r.completion);
const EMPTY = { values: [], total: 0, hasMore: false };

describe.each(ALL_TARGETS.filter((t) => t.transport !== 'stdio'))('every method is authorized on $label', (target) => {
  const asked: Asked[] = [];
  let rsa: KeyPair;
  let plain: TestServer;
  let hiding: TestServer;
  const clients: Client[] = [];
  const token = (sub: string, scope: string) => signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub, claims: { scope } });
  const connect = async (server: TestServer, sub: string, scope: string, setup?: (c: Client) => void) => {
    const c = await connectWith(server, bearer(await token(sub, scope)), setup);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    rsa = await rsaKeyPair();
    const auth = { enabled: true, jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD } };
    plain = await startAuthServer(reportServer(asked), target, { webServer: { auth } });
    hiding = await startAuthServer(reportServer(asked), target, { webServer: { auth: { ...auth, hideUnauthorized: true } } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await plain?.stop();
    await hiding?.stop();
  });

  for (const hide of [false, true]) {
    it(`a token without the prompt's scope gets no completion values, as for an unknown prompt (hideUnauthorized ${hide})`, async () => {
      const server = hide ? hiding : plain;
      const mallory = await connect(server, 'mallory', 'other:scope');
      asked.length = 0;
      const refused = await completePrompt(mallory, 'secret_prompt', 'report', 'secret');
      const unknown = await completePrompt(mallory, 'no_such_prompt', 'report', 'secret');
      expect(refused).toEqual(EMPTY);
      expect(refused).toEqual(unknown);
      // the source never ran for the refused caller
      expect(asked).toEqual([]);
      await expectToolError(mallory.getPrompt({ name: 'secret_prompt', arguments: { report: 'x' } }), MCP_ERROR_CODES.FORBIDDEN);
      // an open prompt still completes
      expect((await completePrompt(mallory, 'open_prompt', 'topic', 'w')).values).toEqual(['weather']);
    });

    it(`a scoped resource template completes only for a caller who may read it (hideUnauthorized ${hide})`, async () => {
      const server = hide ? hiding : plain;
      const mallory = await connect(server, 'mallory', 'other:scope');
      expect(await completeTemplate(mallory, 'test://reports/{name}', 'secret')).toEqual(EMPTY);
      expect(await completeTemplate(mallory, 'test://reports/{name}', 'secret')).toEqual(await completeTemplate(mallory, 'test://unknown/{name}', 'secret'));
      const alice = await connect(server, 'alice', 'reports:read');
      expect((await completeTemplate(alice, 'test://reports/{name}', 'secret')).values).toEqual(SECRET_REPORTS);
    });
  }

  it('a caller with the scope gets the values, and the function source learns who asks (auth, signal)', async () => {
    const alice = await connect(plain, 'alice', 'reports:read');
    asked.length = 0;
    expect((await completePrompt(alice, 'secret_prompt', 'report', 'secret-report-a')).values).toEqual(['secret-report-alpha']);
    expect(asked).toEqual([{ subject: 'alice', signal: true }]);
  });

  it('a subscription to a resource the caller may not read is refused, and no update of it is delivered', async () => {
    const updates: string[] = [];
    const mallory = await connect(plain, 'mallory', 'other:scope', (c) =>
      c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri)),
    );
    const modern = target.era === '2026';
    if (modern) {
      await expectToolError(mallory.listen({ resourceSubscriptions: ['test://secret'] }), MCP_ERROR_CODES.FORBIDDEN);
      await mallory.listen({ resourceSubscriptions: ['test://open'] });
    } else {
      await expectToolError(mallory.subscribeResource({ uri: 'test://secret' }), MCP_ERROR_CODES.FORBIDDEN);
      await mallory.subscribeResource({ uri: 'test://open' });
    }
    if (target.transport === 'stateless') return; // a stateless server has no connection to deliver updates on
    // The secret update goes first on the same stream: once the open one arrived, the secret one would have too.
    await plain.handle.notifyResourceUpdated('test://secret');
    await plain.handle.notifyResourceUpdated('test://open');
    await waitFor(() => updates.includes('test://open'), 5_000, 'the update of the open resource');
    expect(updates).toEqual(['test://open']);
  });
});
