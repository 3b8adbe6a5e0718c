/**
 * stdio's cold front (issue 24, item 2): a 2025-era connection's first answers (initialize, ping,
 * the lists) come before the SDK is loaded, and are byte for byte what the SDK path answers. Each
 * case runs the built package twice in a child process, once with the cold front and once with
 * every request through the SDK (mcp.fastPath false), writes the same lines in one write, and
 * compares every line the server wrote (by id), the request and connection metrics, and that the
 * cold run answered its first list with no @modelcontextprotocol module loaded.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, DIST, probeWorkDir, runProbe } from './probe-kit.js';

const work = probeWorkDir('fa-mcp-cold-front-');

beforeAll(assertBuilt);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface ProbeOut {
  lines: string[];
  sdkAtFirstList?: boolean;
  metrics: string[];
}

const probe = (scenario: string, mode: 'cold' | 'sdk', lines: string[]): Promise<ProbeOut> =>
  runProbe<ProbeOut>(work, 'cold-front-probe.mjs', [DIST, scenario, mode, JSON.stringify(lines)]);

const rpc = (message: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', ...message });
const init = (id: number | string = 1, protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}) =>
  rpc({ id, method: 'initialize', params: { protocolVersion, capabilities, clientInfo: { name: 'probe', version: '1.0.0' } } });
const initialized = rpc({ method: 'notifications/initialized' });

/** The answers by id (the two paths may interleave answers differently; each answer is compared byte for byte). */
function byId(lines: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines) {
    const key = JSON.stringify((JSON.parse(line) as { id?: unknown }).id ?? null);
    out.set(key, [...(out.get(key) ?? []), line]);
  }
  return out;
}

async function compare(scenario: string, lines: string[], coldAnswersFirstList = true): Promise<ProbeOut> {
  const [cold, viaSdk] = await Promise.all([probe(scenario, 'cold', lines), probe(scenario, 'sdk', lines)]);
  expect(byId(cold.lines)).toEqual(byId(viaSdk.lines));
  expect([...cold.metrics].sort()).toEqual([...viaSdk.metrics].sort());
  if (coldAnswersFirstList) expect(cold.sdkAtFirstList, 'an @modelcontextprotocol module was loaded before the first list answer').toBe(false);
  // The SDK path loads it (else the comparison would prove nothing of the SDK's answers).
  expect(viaSdk.sdkAtFirstList ?? true).toBe(true);
  return cold;
}

const lists = [
  rpc({ id: 2, method: 'tools/list' }),
  rpc({ id: 3, method: 'ping' }),
  rpc({ id: 4, method: 'prompts/list' }),
  rpc({ id: 5, method: 'resources/list', params: {} }),
  rpc({ id: 6, method: 'resources/templates/list' }),
];

describe('the cold front answers what the SDK path answers', () => {
  it.each(['plain', 'full', 'tasks', 'skills', 'dynamic', 'noTools'])('initialize, ping and every list: %s', async (scenario) => {
    const cold = await compare(scenario, [init(), initialized, ...lists, rpc({ id: 'after', method: 'tools/list' })], scenario !== 'noTools');
    const initAnswer = JSON.parse(cold.lines.find((l) => l.includes('"id":1')) as string) as { result: { protocolVersion: string } };
    expect(initAnswer.result.protocolVersion).toBe('2025-11-25');
  });

  it.each([['1999-01-01'], ['2024-11-05'], ['2026-07-28']])('negotiates protocol version %s as the SDK does', async (version) => {
    await compare('full', [init(1, version), initialized, rpc({ id: 2, method: 'tools/list' })]);
  });

  it('takes client capabilities and a string id', async () => {
    await compare('full', [init('a', '2025-11-25', { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } }), initialized, rpc({ id: 'b', method: 'tools/list' })]);
  });

  it('serves pages: a cursor, and refuses a bad one the same way', async () => {
    const first = await probe('paged', 'sdk', [init(), initialized, rpc({ id: 2, method: 'tools/list' })]);
    const page = JSON.parse(first.lines.find((l) => l.includes('"id":2')) as string) as { result: { nextCursor: string } };
    expect(page.result.nextCursor).toEqual(expect.any(String));
    await compare('paged', [
      init(),
      initialized,
      rpc({ id: 2, method: 'tools/list' }),
      rpc({ id: 3, method: 'tools/list', params: { cursor: page.result.nextCursor } }),
      rpc({ id: 4, method: 'tools/list', params: { cursor: 'not-a-cursor' } }),
      rpc({ id: 5, method: 'prompts/list' }),
    ]);
  });

  it('applies the pipeline: a rate-limited list is refused the same way', async () => {
    const cold = await compare('limited', [init(), initialized, rpc({ id: 2, method: 'tools/list' }), rpc({ id: 3, method: 'tools/list' })]);
    expect(cold.lines.find((l) => l.includes('"id":3'))).toContain('"error"');
  });

  it('answers initialize + tools/call + tools/list sent in one write, in order, none lost', async () => {
    const cold = await compare('plain', [
      init(),
      initialized,
      rpc({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
      rpc({ id: 3, method: 'tools/list' }),
      rpc({ id: 4, method: 'ping' }),
    ], false);
    expect(cold.lines.find((l) => l.includes('"id":2'))).toContain('echo hi');
  });
});

describe('what the cold front leaves to the SDK behaves as before', () => {
  it.each([
    ['a 2026-07-28 first message', [rpc({ id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'p', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } })]],
    ['a bad line', ['{not json', init(), initialized, rpc({ id: 2, method: 'tools/list' })]],
    ['a bad line after initialize', [init(), '{not json', rpc({ id: 2, method: 'tools/list' })]],
    ['a batch', [JSON.stringify([JSON.parse(init())]), init(2), rpc({ id: 3, method: 'tools/list' })]],
    ['a notification before initialize', [initialized, init(), rpc({ id: 2, method: 'tools/list' })]],
    ['an early notifications/cancelled', [init(), initialized, rpc({ method: 'notifications/cancelled', params: { requestId: 2, reason: 'no' } }), rpc({ id: 2, method: 'tools/list' })]],
    ['initialize with _meta', [rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'p', version: '1' }, _meta: {} } }), rpc({ id: 2, method: 'tools/list' })]],
    ['a second initialize', [init(), initialized, init(2), rpc({ id: 3, method: 'tools/list' })]],
    ['an unknown method', [init(), initialized, rpc({ id: 2, method: 'no/such/method' }), rpc({ id: 3, method: 'tools/list' })]],
    ['an over-deep line', [init(), `{"jsonrpc":"2.0","method":"tools/list","params":${'{"a":'.repeat(80)}1${'}'.repeat(80)}}`, rpc({ id: 3, method: 'tools/list' })]],
  ])('%s', async (_what, lines) => {
    await compare('plain', lines as string[], false);
  });
});
