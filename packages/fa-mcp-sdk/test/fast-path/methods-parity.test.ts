/**
 * The fast paths answer prompts/get, resources/read and completion/complete
 * exactly as the SDK path does, on 2026-07-28 and on 2025-era sessions (both
 * response modes). Each case sends the same raw request to a server with
 * `mcp.fastPath` on and to one with it off and compares status, the headers a
 * client acts on, every JSON-RPC message byte for byte, and what the pipeline
 * saw; the lane's counters prove which path served it, so a lane that quietly
 * handed everything to the SDK could not pass.
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerData } from '../../src/index.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { parseSseMessages } from '../integration/helpers.js';
import { captureStep, REVISION, startPair, type Pair, type Seen } from './parity-kit.js';
import { openSession, post, SESSION_TARGET } from './session-kit.js';

type Era = '2026' | '2025-json' | '2025-sse';
const METHODS = ['prompts/get', 'resources/read', 'completion/complete'] as const;

function methodsServer(seen: Map<string, Seen>): McpServerData {
  return {
    steps: [captureStep(seen, METHODS)],
    prompts: [
      { name: 'greet', description: 'Greets someone.', arguments: [{ name: 'who', required: true, complete: ['alice', 'albert', 'bob'] }], content: (args) => `Hello ${args.who}` },
      { name: 'pair', content: { messages: [{ role: 'user', content: { type: 'text', text: 'one' } }, { role: 'assistant', content: { type: 'text', text: 'two' } }] } },
      { name: 'picture', content: { messages: [{ role: 'user', content: { type: 'image', data: 'aGk=', mimeType: 'image/png' } }] } },
      { name: 'guarded', requiredScopes: ['admin'], content: 'secret' },
      {
        name: 'asks',
        content: async (_args, ctx) => {
          const answer = await ctx.client?.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
          return `got ${JSON.stringify(answer)}`;
        },
      },
      { name: 'old', deprecated: { until: '2099-01-01', replacedBy: 'greet' }, content: 'old text' },
      {
        name: 'crashes',
        content: () => {
          throw new Error('cannot read /etc/passwd');
        },
      },
    ],
    resources: [
      { uri: 'doc://readme', name: 'readme', mimeType: 'text/markdown', content: '# read me' },
      { uri: 'doc://plain', name: 'plain', content: 'no type' },
      { uri: 'doc://logo', name: 'logo', mimeType: 'image/png', content: () => ({ blob: 'aGk=' }) },
      { uri: 'doc://static/guide', name: 'guide', mimeType: 'text/markdown', cacheHint: { ttlMs: 3_600_000, cacheScope: 'public' }, content: '# guide' },
      { uri: 'doc://static/ttl-only', name: 'ttl-only', cacheHint: { ttlMs: 1_000 }, content: 'ttl only' },
      { uri: 'doc://static/badge', name: 'badge', mimeType: 'image/png', cacheHint: { ttlMs: 7_000, cacheScope: 'public' }, content: () => ({ blob: 'aGk=' }) },
    ],
    resourceTemplates: [
      { uriTemplate: 'doc://items/{id}', name: 'item', mimeType: 'text/plain', complete: { id: ['1', '12', '2'] }, read: (_uri, v) => `item ${v.id}` },
      { uriTemplate: 'doc://pages/{n}', name: 'page', mimeType: 'text/plain', cacheHint: { ttlMs: 120_000, cacheScope: 'public' }, read: (_uri, v) => `page ${v.n}` },
    ],
  };
}

interface Request {
  method: (typeof METHODS)[number];
  params: Record<string, unknown>;
  headers?: Record<string, string>;
  id?: number | string;
}

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  messages: string[];
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The headers and body a client of `era` sends (2026-07-28: the `_meta` envelope, Mcp-Method and Mcp-Name). */
function wire(era: Era, request: Request): { headers: Record<string, string>; body: unknown } {
  const { method, params } = request;
  if (era !== '2026') return { headers: {}, body: { jsonrpc: '2.0', id: request.id ?? 1, method, params } };
  const headers: Record<string, string> = { 'mcp-protocol-version': REVISION, 'mcp-method': method };
  const name = method === 'prompts/get' ? params.name : method === 'resources/read' ? params.uri : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  const meta = { ...ENVELOPE, ...(params._meta as object | undefined) };
  return { headers, body: { jsonrpc: '2.0', id: request.id ?? 1, method, params: { ...params, _meta: meta } } };
}

async function send(server: TestServer, era: Era, session: string | undefined, requestId: string, request: Request): Promise<Answer> {
  const { headers, body } = wire(era, request);
  const res = await post(server, body, { ...headers, ...(session ? { 'mcp-session-id': session } : {}), 'x-request-id': requestId, ...request.headers });
  const text = session ? (await res.text()).replaceAll(session, '<session>') : await res.text();
  const type = res.headers.get('content-type') ?? '';
  const raw: unknown[] = !text ? [] : type.includes('text/event-stream') ? parseSseMessages(text) : type.includes('json') ? [JSON.parse(text)] : [text];
  const kept: Record<string, string | null> = {};
  for (const name of ['content-type', 'cache-control', 'retry-after', 'www-authenticate', 'x-request-id', 'mcp-session-id']) {
    const value = res.headers.get(name);
    kept[name] = value === null ? null : (session ? value.replaceAll(session, '<session>') : value).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
  }
  // A freshly signed requestState differs by nature.
  const masked = (key: string, value: unknown) => (key === 'requestState' && typeof value === 'string' ? '<requestState>' : value);
  return { status: res.status, headers: kept, messages: raw.map((m) => JSON.stringify(m, masked)) };
}

const TARGETS: Record<Era, { target: TestTarget; mcp: Record<string, unknown> }> = {
  '2026': { target: { transport: 'http', era: '2026', label: 'http/2026' }, mcp: {} },
  '2025-json': { target: SESSION_TARGET, mcp: { responseMode: 'json' } },
  '2025-sse': { target: SESSION_TARGET, mcp: { responseMode: 'sse' } },
};

/** How many requests the fast lane's protocol fast path served (2026-07-28 calls, or session calls). */
const served = (server: TestServer, era: Era) => {
  const stats = server.handle.http?.fastLane();
  return (era === '2026' ? stats?.fastCalls : stats?.sessionCalls) ?? 0;
};

/** A pair of servers of `era`, with sessions opened on 2025-era ones, and the parity check. */
function parityOf(era: Era, config: Record<string, unknown>, headers: () => Record<string, string> = () => ({})) {
  const state = { pair: undefined as Pair | undefined, sessions: { fast: undefined as string | undefined, sdk: undefined as string | undefined }, n: 0 };
  beforeAll(async () => {
    const { target, mcp } = TARGETS[era];
    const pair = await startPair((seen) => methodsServer(seen), { ...config, mcp: { ...mcp, ...(config.mcp as object | undefined) } }, target);
    state.pair = pair;
    if (era !== '2026') {
      state.sessions.fast = await openSession(pair.fast, undefined, headers());
      state.sessions.sdk = await openSession(pair.sdk, undefined, headers());
    }
  });
  afterAll(async () => {
    await state.pair?.stop();
  });
  /** Same answer and the same view of the request on both; `lane` says whether the fast path served it. */
  return async (request: Request, lane: 'serves' | 'hands over'): Promise<Answer> => {
    const pair = state.pair as Pair;
    const before = served(pair.fast, era);
    const requestId = `methods-${era}-${++state.n}`;
    const withAuth = { ...request, headers: { ...headers(), ...request.headers } };
    const fast = await send(pair.fast, era, state.sessions.fast, requestId, withAuth);
    const sdk = await send(pair.sdk, era, state.sessions.sdk, requestId, withAuth);
    expect(fast.status).toBe(sdk.status);
    expect(fast.headers).toEqual(sdk.headers);
    expect(fast.messages).toEqual(sdk.messages);
    const seen = (label: 'fast' | 'sdk') => JSON.stringify(pair.seen[label].get(requestId) ?? null).replaceAll(state.sessions[label] ?? '<none>', '<session>');
    expect(seen('fast')).toEqual(seen('sdk'));
    expect(served(pair.fast, era) - before).toBe(lane === 'serves' ? 1 : 0);
    expect(served(pair.sdk, era)).toBe(0);
    return fast;
  };
}

describe.each(['2026', '2025-json', '2025-sse'] as const)('fast path parity of prompts/get, resources/read, completion/complete (%s)', (era) => {
  const expectParity = parityOf(era, { mcp: { httpErrorStatus: true } });

  it('prompts/get: text prompts with and without a description, deprecated ones, and _meta with a progress token', async () => {
    const greet = await expectParity({ method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ann ✓' } } }, 'serves');
    expect(greet.messages.join()).toContain('Hello Ann ✓');
    if (era === '2026') expect(greet.messages[0]).toContain('"resultType":"complete"');
    await expectParity({ method: 'prompts/get', params: { name: 'pair' } }, 'serves');
    await expectParity({ method: 'prompts/get', params: { name: 'old', arguments: {}, _meta: { progressToken: 'p1', 'example.com/x': 1 } } }, 'serves');
  });

  it('prompts/get: an unknown prompt, invalid arguments, a crash', async () => {
    const unknown = await expectParity({ method: 'prompts/get', params: { name: 'nope' } }, 'serves');
    expect(unknown.messages.join()).toContain('-32602');
    await expectParity({ method: 'prompts/get', params: { name: 'greet' } }, 'serves');
    await expectParity({ method: 'prompts/get', params: { name: 'greet', arguments: { who: 'a', extra: 'b' } } }, 'serves');
    const crash = await expectParity({ method: 'prompts/get', params: { name: 'crashes' } }, 'serves');
    expect(crash.messages.join()).not.toContain('passwd');
  });

  it('resources/read: text resources with and without a MIME type, template reads, and an unknown resource (-32602 with its uri)', async () => {
    const readme = await expectParity({ method: 'resources/read', params: { uri: 'doc://readme' } }, 'serves');
    expect(readme.messages.join()).toContain('# read me');
    await expectParity({ method: 'resources/read', params: { uri: 'doc://plain' } }, 'serves');
    await expectParity({ method: 'resources/read', params: { uri: 'doc://items/7' } }, 'serves');
    const unknown = await expectParity({ method: 'resources/read', params: { uri: 'doc://missing' } }, 'serves');
    // Both of the SDK's codecs answer -32002 as -32602.
    expect(unknown.messages.join()).toContain('"code":-32602');
    expect(unknown.messages.join()).toContain('"uri":"doc://missing"');
  });

  it('completion/complete: prompt arguments and template variables, with context; an unknown ref completes to nothing', async () => {
    const values = await expectParity({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'al' } } }, 'serves');
    expect(values.messages.join()).toContain('"values":["alice","albert"]');
    await expectParity({ method: 'completion/complete', params: { ref: { uri: 'doc://items/{id}', type: 'ref/resource' }, argument: { value: '1', name: 'id' }, context: { arguments: {} } } }, 'serves');
    await expectParity({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'who', value: '' } } }, 'serves');
  });

  it('results the fast path does not write (non-text prompts, blobs) are encoded by the SDK from the one run', async () => {
    await expectParity({ method: 'prompts/get', params: { name: 'picture' } }, 'serves');
    await expectParity({ method: 'resources/read', params: { uri: 'doc://logo' } }, 'serves');
  });

  it('a prompt that asks the client for input it cannot give: -32021 (HTTP 400 on 2026-07-28), and on 2026-07-28 an input_required round for a client that can', async () => {
    const refused = await expectParity({ method: 'prompts/get', params: { name: 'asks' } }, 'serves');
    expect(refused.messages.join()).toContain(era === '2026' ? '-32021' : '"error"');
    if (era !== '2026') return;
    expect(refused.status).toBe(400);
    const round = await expectParity({ method: 'prompts/get', params: { name: 'asks', _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } }, 'serves');
    expect(round.messages[0]).toContain('"resultType":"input_required"');
  });

  it('requests it does not take go to the SDK path: extra params, non-string arguments, a wrong ref, a mismatched Mcp-Name', async () => {
    await expectParity({ method: 'prompts/get', params: { name: 'greet', arguments: { who: 1 } } }, 'hands over');
    await expectParity({ method: 'resources/read', params: { uri: 'doc://readme', extra: true } }, 'hands over');
    await expectParity({ method: 'completion/complete', params: { ref: { type: 'ref/other', name: 'greet' }, argument: { name: 'who', value: '' } } }, 'hands over');
    await expectParity({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who' } } }, 'hands over');
    if (era === '2026') {
      const mismatch = await expectParity({ method: 'prompts/get', params: { name: 'greet', arguments: { who: 'a' } }, headers: { 'mcp-name': 'other' } }, 'hands over');
      expect(mismatch.status).toBe(400);
      await expectParity({ method: 'resources/read', params: { uri: 'doc://readme' }, headers: { 'mcp-name': 'doc://other' } }, 'hands over');
      await expectParity({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: '' } }, headers: { 'mcp-name': 'greet' } }, 'hands over');
    } else {
      await expectParity({ method: 'resources/read', params: { uri: 'doc://readme', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'x' } } } }, 'hands over');
    }
  });
});

describe.each(['2026', '2025-json'] as const)('fast path parity of the methods with authentication (%s)', (era) => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const sign = (scope: string) =>
    new SignJWT({ scope }).setProtectedHeader({ alg: 'ES256' }).setSubject('alice').setIssuer('parity').setIssuedAt().setExpirationTime('10m').sign(privateKey);
  const tokens = { mcp: '' };
  beforeAll(async () => {
    tokens.mcp = `Bearer ${await sign('mcp')}`;
  });
  const auth = { enabled: true, realm: 'parity', requiredScopes: ['mcp'], jwtToken: { mode: 'localKey', publicKey: publicKey.export({ type: 'spki', format: 'pem' }), issuer: 'parity' } };
  const expectParity = parityOf(era, { webServer: { auth } }, () => ({ authorization: tokens.mcp }));

  it('a caller refused by authentication is the guard answer; authorize refuses a guarded prompt and hides it from completion; an accepted caller is served', async () => {
    const none = await expectParity({ method: 'prompts/get', params: { name: 'greet', arguments: { who: 'a' } }, headers: { authorization: '' } }, 'hands over');
    expect(none.status).toBe(401);
    const refused = await expectParity({ method: 'prompts/get', params: { name: 'guarded' } }, 'serves');
    expect(refused.messages.join()).toContain('-32001');
    await expectParity({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'guarded' }, argument: { name: 'x', value: '' } } }, 'serves');
    await expectParity({ method: 'resources/read', params: { uri: 'doc://readme' } }, 'serves');
  });
});

describe('fast path parity of resources/read with cache hints (2026)', () => {
  const expectParity = parityOf('2026', { mcp: { cacheHints: { ttlMs: 5_000, cacheScope: 'public', perMethod: { 'resources/read': { ttlMs: 60_000 } } } } });

  it('a read carries the configured ttlMs and cacheScope, as the SDK stamps them', async () => {
    const read = await expectParity({ method: 'resources/read', params: { uri: 'doc://readme' } }, 'serves');
    expect(read.messages[0]).toContain('"ttlMs":60000,"cacheScope":"public"');
  });

  it("a resource's or template's own hint wins over the per-method one, field by field; a blob's too (the SDK's codec)", async () => {
    const guide = await expectParity({ method: 'resources/read', params: { uri: 'doc://static/guide' } }, 'serves');
    expect(guide.messages[0]).toContain('"ttlMs":3600000,"cacheScope":"public"');
    const ttlOnly = await expectParity({ method: 'resources/read', params: { uri: 'doc://static/ttl-only' } }, 'serves');
    expect(ttlOnly.messages[0]).toContain('"ttlMs":1000,"cacheScope":"public"');
    const page = await expectParity({ method: 'resources/read', params: { uri: 'doc://pages/4' } }, 'serves');
    expect(page.messages[0]).toContain('"ttlMs":120000,"cacheScope":"public"');
    const badge = await expectParity({ method: 'resources/read', params: { uri: 'doc://static/badge' } }, 'serves');
    expect(badge.messages[0]).toContain('"ttlMs":7000,"cacheScope":"public"');
  });
});

describe('fast path parity of per-resource cache hints without configured ones (2026)', () => {
  const expectParity = parityOf('2026', {});

  it('the static document is public for an hour, the dynamic read keeps the default (0, private)', async () => {
    const guide = await expectParity({ method: 'resources/read', params: { uri: 'doc://static/guide' } }, 'serves');
    expect(guide.messages[0]).toContain('"ttlMs":3600000,"cacheScope":"public"');
    const ttlOnly = await expectParity({ method: 'resources/read', params: { uri: 'doc://static/ttl-only' } }, 'serves');
    expect(ttlOnly.messages[0]).toContain('"ttlMs":1000,"cacheScope":"private"');
    const item = await expectParity({ method: 'resources/read', params: { uri: 'doc://items/3' } }, 'serves');
    expect(item.messages[0]).toContain('"ttlMs":0,"cacheScope":"private"');
  });
});

describe.each(['2025-json', '2025-sse'] as const)('per-resource cache hints on 2025-era sessions (%s)', (era) => {
  const expectParity = parityOf(era, {});

  it('are not sent', async () => {
    const guide = await expectParity({ method: 'resources/read', params: { uri: 'doc://static/guide' } }, 'serves');
    expect(guide.messages.join()).toContain('# guide');
    expect(guide.messages.join()).not.toContain('ttlMs');
    expect(guide.messages.join()).not.toContain('cacheScope');
  });
});
