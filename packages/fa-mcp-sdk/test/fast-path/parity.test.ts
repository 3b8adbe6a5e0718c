/**
 * The 2026-07-28 fast path answers exactly as the SDK path does. Each case
 * sends the same raw request to a server with `mcp.fastPath` on and to one
 * with it off, and compares status, the headers a client acts on, every
 * JSON-RPC message byte for byte (in order, notifications included), and what
 * the pipeline and the handler saw. Cases the fast lane writes itself must
 * also have been served by it (counted, and framed by Content-Length where the
 * SDK path streams chunked), so a lane that quietly handed everything to the
 * SDK could not pass.
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/testing/index.js';
import { captureStep, send, startPair, type Answer, type CallSpec, type Pair } from './parity-kit.js';
import { ELICIT, parityTools } from './parity-tools.js';
import { formatToolResult } from '../../src/index.js';

async function both(pair: Pair, requestId: string, spec: CallSpec): Promise<{ fast: Answer; sdk: Answer }> {
  const [fast, sdk] = [await send(pair.fast, requestId, spec), await send(pair.sdk, requestId, spec)];
  return { fast, sdk };
}

function expectSame({ fast, sdk }: { fast: Answer; sdk: Answer }) {
  expect(fast.status).toBe(sdk.status);
  expect(fast.headers).toEqual(sdk.headers);
  expect(fast.messages).toEqual(sdk.messages);
}

const served = (server: TestServer) => server.handle.http?.fastLane().fastCalls ?? 0;

describe('fast path parity (2026-07-28 tools/call)', () => {
  let pair: Pair;
  const aborted = { fast: [] as string[], sdk: [] as string[] };
  const started = { fast: [] as string[], sdk: [] as string[] };
  let n = 0;
  const rid = () => `parity-${++n}`;

  beforeAll(async () => {
    pair = await startPair(
      (seen, label) => parityTools(seen, aborted[label], started[label]),
      {
        mcp: {
          limits: { maxToolResultBytes: 2_000 },
          rateLimit: { perTool: { scarce: { maxRequests: 1, windowMs: 60_000 } } },
          requestState: { secret: 'p'.repeat(32) },
          // Mapped statuses (429 for the rate limit below) on both paths.
          httpErrorStatus: true,
        },
      },
    );
  });
  afterAll(async () => {
    await pair?.stop();
  });

  /** Same answer on both, what the pipeline saw alike, and the fast lane served it (or did not). */
  async function expectParity(spec: CallSpec, lane: 'writes' | 'replays' | 'hands over'): Promise<{ fast: Answer; sdk: Answer }> {
    const before = served(pair.fast);
    const requestId = rid();
    const answers = await both(pair, requestId, spec);
    expectSame(answers);
    expect(pair.seen.fast.get(requestId)).toEqual(pair.seen.sdk.get(requestId));
    expect(served(pair.fast) - before).toBe(lane === 'hands over' ? 0 : 1);
    expect(served(pair.sdk)).toBe(0);
    if (lane === 'writes' && answers.fast.headers['content-type'] === 'application/json') {
      expect(answers.fast.framedByLength).toBe(true);
      expect(answers.sdk.framedByLength).toBe(false);
    }
    return answers;
  }

  it('a plain success, with input and output schemas', async () => {
    const { fast } = await expectParity({ name: 'echo', arguments: { text: 'héllo ✓' } }, 'writes');
    expect(fast.messages[0]).toContain('"resultType":"complete"');
  });

  it('what the pipeline and the handler see: params with progress token and foreign _meta, headers, capabilities, client info', async () => {
    const { fast } = await expectParity(
      { name: 'sees', arguments: { b: [1, { c: null }], a: 'x', '10': 1 }, meta: { 'example.com/trace': 'abc', progressToken: 'tok-1' }, capabilities: { roots: { listChanged: true } } },
      'writes',
    );
    expect(fast.messages[0]).toContain('"requestId":"parity-');
  });

  it('a result written in another key order, with isError false', async () => {
    await expectParity({ name: 'reversed' }, 'writes');
  });

  it('a tool error (isError with structuredContent)', async () => {
    await expectParity({ name: 'fails' }, 'writes');
  });

  it('an unexpected error: -32603 naming only the request id', async () => {
    const { fast } = await expectParity({ name: 'crashes' }, 'writes');
    expect(fast.messages[0]).not.toContain('passwd');
  });

  it('invalid arguments (an isError result with _meta["fa-mcp/validation"]) and an unknown tool (-32602)', async () => {
    const { fast } = await expectParity({ name: 'echo', arguments: { text: 42 } }, 'writes');
    expect(fast.messages[0]).toContain('"_meta":{"fa-mcp/validation":{"field":"text","reason":"must be string"}');
    expect(fast.messages[0]).toContain('"isError":true');
    await expectParity({ name: 'echo', arguments: { text: 'a', extra: true } }, 'writes');
    const unknown = await expectParity({ name: 'no_such_tool', arguments: {} }, 'writes');
    expect(unknown.fast.messages[0]).toContain('"code":-32602');
  });

  it('a rate-limited call: -32003 with retryAfter, Retry-After and (mcp.httpErrorStatus) HTTP 429', async () => {
    await expectParity({ name: 'scarce' }, 'writes');
    const { fast } = await expectParity({ name: 'scarce' }, 'writes');
    expect(fast.status).toBe(429);
    expect(fast.messages[0]).toContain('-32003');
    expect(fast.headers['retry-after']).not.toBeNull();
  });

  it('non-text content: the SDK encodes the result the fast path computed; a plain result _meta is written', async () => {
    await expectParity({ name: 'image' }, 'replays');
    await expectParity({ name: 'with_meta' }, 'writes');
  });

  it('an oversized result, capped', async () => {
    const { fast } = await expectParity({ name: 'huge' }, 'replays');
    expect(fast.messages[0]).toContain('TRUNCATED');
  });

  it('an input_required round (and -32021 with HTTP 400 when the client cannot answer)', async () => {
    const { fast } = await expectParity({ name: 'asks', capabilities: ELICIT }, 'replays');
    expect(fast.messages[0]).toContain('"resultType":"input_required"');
    const refused = await expectParity({ name: 'asks' }, 'writes');
    expect(refused.fast.status).toBe(400);
    expect(refused.fast.messages[0]).toContain('-32021');
  });

  it('progress, logs at the request level and notifications: the same event stream', async () => {
    const { fast } = await expectParity({ name: 'chatty', meta: { progressToken: 7 }, logLevel: 'info' }, 'writes');
    expect(fast.headers['content-type']).toBe('text/event-stream');
    expect(fast.messages.length).toBeGreaterThan(4);
    expect(fast.messages.join()).not.toContain('below the level');
  });

  it('x-mcp-header tools: the core route takes them and refuses a bad Mcp-Param-* header as the SDK path does (400, -32020)', async () => {
    const agrees = await expectParity({ name: 'regional', arguments: { region: 'eu' }, headers: { 'mcp-param-region': 'eu' } }, 'writes');
    expect(agrees.fast.status).toBe(200);
    const encoded = await expectParity({ name: 'regional', arguments: { region: 'né' }, headers: { 'mcp-param-region': `=?base64?${Buffer.from('né').toString('base64')}?=` } }, 'writes');
    expect(encoded.fast.status).toBe(200);
    for (const headers of [{ 'mcp-param-region': 'us' }, {}, { 'mcp-param-region': '=?base64?ZXU?=' }] as Array<Record<string, string>>) {
      const refused = await expectParity({ name: 'regional', arguments: { region: 'eu' }, headers }, 'writes');
      expect(refused.fast.status).toBe(400);
      expect(refused.fast.headers['content-type']).toBe('application/json');
      expect(JSON.parse(refused.fast.messages[0] as string)).toMatchObject({ error: { code: -32020, data: { mismatch: { header: 'Mcp-Param-Region' } } } });
    }
  });

  it('requests it does not take go to the SDK path: header mismatches, requestState, task params', async () => {
    const mismatch = await expectParity({ name: 'echo', arguments: { text: 'a' }, headers: { 'mcp-name': 'other' } }, 'hands over');
    expect(mismatch.fast.status).toBe(400);
    await expectParity({ name: 'echo', arguments: { text: 'a' }, extraParams: { requestState: 'forged' } }, 'hands over');
    await expectParity({ name: 'asks', capabilities: ELICIT, extraParams: { inputResponses: { elicitation: { action: 'decline' } } } }, 'hands over');
    await expectParity({ name: 'echo', arguments: { text: 'a' }, extraParams: { task: { ttl: 1000 } } }, 'hands over');
  });

  it('string ids and an envelope seen before are answered alike', async () => {
    const first = await expectParity({ name: 'echo', arguments: { text: 'a' }, id: 'str-id' }, 'writes');
    expect(first.fast.messages[0]).toContain('"id":"str-id"');
    await expectParity({ name: 'echo', arguments: { text: 'a' }, id: 'str-id', meta: { progressToken: 12 } }, 'writes');
  });

  it('a client that goes away: the handler is aborted with the same reason and nothing is answered', async () => {
    for (const label of ['fast', 'sdk'] as const) {
      const controller = new AbortController();
      const pending = send(pair[label], 'parity-gone', { name: 'waits' }, controller.signal).catch((err: Error) => err.name);
      await expect.poll(() => started[label].length, { timeout: 10_000 }).toBe(1);
      controller.abort();
      expect(await pending).toBe('AbortError');
    }
    await expect.poll(() => aborted.fast.length + aborted.sdk.length).toBe(2);
    expect(aborted.fast).toEqual(aborted.sdk);
  });
});

describe('fast path parity with authentication', () => {
  let pair: Pair;
  let token: (scope: string) => Promise<string>;

  beforeAll(async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    token = (scope) =>
      new SignJWT({ scope }).setProtectedHeader({ alg: 'ES256' }).setSubject('alice').setIssuer('parity').setIssuedAt().setExpirationTime('10m').sign(privateKey);
    const auth = { enabled: true, realm: 'parity', requiredScopes: ['mcp'], jwtToken: { mode: 'localKey', publicKey: publicKey.export({ type: 'spki', format: 'pem' }), issuer: 'parity' } };
    pair = await startPair((seen) => parityTools(seen, []), { webServer: { auth } });
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('refusals are the express guard answers, once; an accepted caller is served by the lane with the same identity', async () => {
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 401],
      [{ authorization: 'Bearer not.a.token' }, 401],
      [{ authorization: `Bearer ${await token('other')}` }, 403],
      [{ authorization: `Bearer ${await token('mcp')}` }, 200],
    ];
    let i = 0;
    for (const [headers, status] of cases) {
      const before = served(pair.fast);
      const requestId = `auth-${++i}`;
      const answers = await both(pair, requestId, { name: 'sees', arguments: {}, headers });
      expectSame(answers);
      expect(answers.fast.status).toBe(status);
      expect(pair.seen.fast.get(requestId)).toEqual(pair.seen.sdk.get(requestId));
      expect(served(pair.fast) - before).toBe(status === 200 ? 1 : 0);
    }
    expect(pair.seen.fast.get('auth-4')?.context).toContain('"subject":"alice"');
  });
});

describe('fast path parity with tasks offered', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair(
      (seen) => ({
        steps: [captureStep(seen)],
        tools: [
          { name: 'plain', description: 'No task support.', inputSchema: { type: 'object' }, handler: () => formatToolResult('ok') },
          { name: 'only_task', description: 'Runs only as a task.', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' }, handler: () => formatToolResult('ok') },
          { name: 'needs_sampling', description: 'Needs the client model.', inputSchema: { type: 'object' }, execution: { requiredClientCapabilities: { sampling: {} } }, handler: () => formatToolResult('sampled') },
        ],
      }),
      { mcp: { tasks: { enabled: true } } },
    );
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('serves task-less tools with the same operation state, and leaves task-capable tools and extension clients to the SDK', async () => {
    const specs: Array<[CallSpec, boolean]> = [
      [{ name: 'plain' }, true],
      [{ name: 'only_task' }, false],
      [{ name: 'plain', capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } }, false],
    ];
    let i = 0;
    for (const [spec, lane] of specs) {
      const before = served(pair.fast);
      const requestId = `tasks-${++i}`;
      expectSame(await both(pair, requestId, spec));
      expect(pair.seen.fast.get(requestId)).toEqual(pair.seen.sdk.get(requestId));
      expect(served(pair.fast) - before).toBe(lane ? 1 : 0);
    }
    expect(pair.seen.fast.get('tasks-1')?.state).toContain('tasks-offered');
  });

  it('refuses a tool whose required client capability the request lacks with the same -32021 on both paths, and serves it once declared', async () => {
    const refused = await both(pair, 'caps-1', { name: 'needs_sampling', capabilities: { elicitation: {} } });
    expectSame(refused);
    expect(refused.fast.status).toBe(400);
    expect(refused.fast.messages[0]).toContain('"code":-32021');
    expect(refused.fast.messages[0]).toContain('"requiredCapabilities":{"sampling":{}}');
    const before = served(pair.fast);
    const ok = await both(pair, 'caps-2', { name: 'needs_sampling', capabilities: { sampling: {} } });
    expectSame(ok);
    expect(ok.fast.messages[0]).toContain('sampled');
    expect(served(pair.fast) - before).toBe(1);
  });
});
