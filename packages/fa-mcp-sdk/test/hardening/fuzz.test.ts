/**
 * Fuzz test of the transports: malformed JSON, wrong JSON-RPC shapes, wrong
 * param types for every method, unknown methods, huge and deeply nested values
 * and invalid UTF-8, thrown at HTTP (2025 session, 2025 stateless, 2026) and at
 * stdio (2025, 2026). Every input must get a well-formed JSON-RPC error (or an
 * HTTP 4xx carrying one; nothing for a well-formed notification), the process
 * must not crash, and the next valid request must be answered.
 *
 * Per target: a sweep (every method, every param it reads, a value of the wrong
 * JSON type: only an error is a fair answer), then FUZZ_CASES random cases
 * (default 64, every family in turn). Bounded: past FUZZ_BUDGET_MS per target
 * (default 10 s) the random cases stop, once at least 32 of them ran.
 * Seeded: the seed is printed; replay a run with FUZZ_SEED=<seed>.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';
import { generateCases, mulberry32, oneLine, wrongTypeSweep, type FuzzCase, type FuzzOptions } from './fuzz-cases.js';
import { ENVELOPE, fuzzServerData, judge, LEGACY, MODERN, modernHeaders, owedFor, postRaw, startStdioPeer, type StdioPeer } from './fuzz-harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CASES = Number(process.env.FUZZ_CASES ?? 64);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 10_000);
const MIN_CASES = Math.min(CASES, 32);
const MAX_PAYLOAD = 64 * 1024;
console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${CASES} cases per target`);

const crashes: unknown[] = [];
const onCrash = (err: unknown) => {
  crashes.push(err);
  console.log('CRASH', err);
};
process.on('uncaughtException', onCrash);
process.on('unhandledRejection', onCrash);
afterAll(async () => {
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  await stopAllServers();
});

interface Failure {
  index: number;
  kind: string;
  why: string;
  body: string;
}

const show = (c: FuzzCase) => c.body.toString('latin1').slice(0, 160);
const seedFor = (label: string) => [...label].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, SEED);

function report(label: string, failures: Failure[], tally: Map<string, number>): void {
  console.log(`[${label}] seed ${SEED}: ${[...tally].map(([k, n]) => `${k}=${n}`).join(' ')}`);
  for (const f of failures.slice(0, 10)) console.log(`[${label}] #${f.index} ${f.kind}: ${f.why}\n    ${f.body}`);
}

/** The sweep (every method, every param, a wrong type) then CASES random cases, all from the seed. */
function casesFor(label: string, era: '2025' | '2026'): { cases: FuzzCase[]; required: number } {
  const rng = mulberry32(seedFor(label));
  const opts: FuzzOptions = { maxPayloadBytes: MAX_PAYLOAD, ...(era === '2026' ? { envelope: ENVELOPE } : {}) };
  const sweep = wrongTypeSweep(rng, opts);
  // The sweep always runs whole; the time budget may cut the random cases, down to MIN_CASES.
  return { cases: [...sweep, ...generateCases(rng, CASES, opts)], required: sweep.length + MIN_CASES };
}

const count = (tally: Map<string, number>, key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);

describe.each([
  { label: 'http-session/2025', stateless: false, era: '2025' as const },
  { label: 'http-stateless/2025', stateless: true, era: '2025' as const },
  { label: 'http/2026', stateless: false, era: '2026' as const },
])('fuzz $label', ({ label, stateless, era }) => {
  let handle: McpServerHandle;
  let url: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    handle = await startTestServer(fuzzServerData(), { mcp: { stateless, limits: { maxPayloadBytes: MAX_PAYLOAD } } });
    url = serverUrl(handle).href;
    headers = {};
    if (era === '2026') headers = { 'mcp-protocol-version': MODERN };
    else if (!stateless) {
      const init = await postRaw(url, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } })), {});
      headers = { 'mcp-session-id': init.headers?.get('mcp-session-id') ?? '', 'mcp-protocol-version': LEGACY };
      await postRaw(url, Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}'), headers);
    } else headers = { 'mcp-protocol-version': LEGACY };
  });

  const probe = (i: number) =>
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: `probe-${i}`, method: 'tools/call', params: { name: 'echo', arguments: { text: `p${i}` }, ...(era === '2026' ? { _meta: ENVELOPE } : {}) } }));

  it('answers every hostile input, stays up, and answers the next valid request', async () => {
    const { cases, required } = casesFor(label, era);
    const failures: Failure[] = [];
    const tally = new Map<string, number>();
    const deadline = Date.now() + BUDGET_MS;
    let done = 0;
    for (const [index, c] of cases.entries()) {
      if (Date.now() > deadline && done >= required) break;
      const extra = era === '2026' ? modernHeaders(c.body) : {};
      const answer = await postRaw(url, c.body, { ...headers, ...extra }).catch((err: Error) => ({ status: 0, messages: [], text: err.message }));
      const why = answer.status === 0 ? `no HTTP answer: ${answer.text}` : judge(owedFor(c.body), answer, c.mustError);
      count(tally, `${answer.status}`);
      if (why) failures.push({ index, kind: c.kind, why: `${why} (${answer.text.slice(0, 300)})`, body: show(c) });
      const next = await postRaw(url, probe(index), { ...headers, ...(era === '2026' ? modernHeaders(probe(index)) : {}) });
      const ok = next.status === 200 && next.messages.some((m) => (m as { id?: unknown; result?: unknown }).id === `probe-${index}` && (m as { result?: unknown }).result);
      if (!ok) failures.push({ index, kind: c.kind, why: `the next valid request failed: ${next.status} ${next.text.slice(0, 200)}`, body: show(c) });
      done++;
    }
    report(label, failures, tally);
    expect(done, 'cases run within the time budget').toBeGreaterThanOrEqual(required);
    expect(failures.map((f) => `#${f.index} ${f.kind}: ${f.why} <- ${f.body}`), `seed ${SEED}`).toEqual([]);
    expect(crashes, `seed ${SEED}`).toEqual([]);
    expect(({} as Record<string, unknown>).polluted, 'prototype pollution').toBeUndefined();
  });
});

describe.each([
  { label: 'stdio/2025', era: '2025' as const },
  { label: 'stdio/2026', era: '2026' as const },
])('fuzz $label', ({ label, era }) => {
  let peer: StdioPeer;

  beforeAll(async () => {
    peer = await startStdioPeer(fuzzServerData(), { mcp: { limits: { maxPayloadBytes: MAX_PAYLOAD } } });
    if (era === '2025') {
      peer.write(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }));
      expect(await peer.waitFor((m) => (m as { id?: unknown }).id === 'init', 5_000)).toBeDefined();
      peer.write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    } else {
      peer.write(JSON.stringify({ jsonrpc: '2.0', id: 'discover', method: 'server/discover', params: { _meta: ENVELOPE } }));
      expect(await peer.waitFor((m) => (m as { id?: unknown }).id === 'discover', 5_000)).toBeDefined();
    }
    peer.drain();
  });
  afterAll(() => peer?.close());

  it('answers every hostile line, stays up, and answers the next valid request', async () => {
    const { cases, required } = casesFor(label, era);
    const failures: Failure[] = [];
    const tally = new Map<string, number>();
    const deadline = Date.now() + BUDGET_MS;
    let done = 0;
    for (const [index, c] of cases.entries()) {
      if (Date.now() > deadline && done >= required) break;
      const line = oneLine(c.body);
      const owed = owedFor(line);
      peer.write(line);
      const probeId = `probe-${index}`;
      peer.write(JSON.stringify({ jsonrpc: '2.0', id: probeId, method: 'tools/call', params: { name: 'echo', arguments: { text: 'p' }, ...(era === '2026' ? { _meta: ENVELOPE } : {}) } }));
      const probeAnswer = await peer.waitFor((m) => (m as { id?: unknown }).id === probeId, 5_000);
      // An answer to the case may trail the probe's; wait a little for it when none came yet.
      const answered = (m: unknown) => (m as { id?: unknown }).id !== probeId;
      if (!owed.silentOk && !(await peer.waitFor(answered, 0))) await peer.waitFor(answered, 1_000);
      const messages = peer.drain().filter((m) => (m as { id?: unknown }).id !== probeId);
      // A blank line is no message on a newline-delimited stream: skipped, nothing owed.
      const blank = line.toString('latin1').trim() === '';
      const why = blank ? (messages.length ? 'an answer to a blank line' : '') : judge(owed, { messages }, c.mustError);
      count(tally, why ? 'bad' : messages.length ? 'answered' : 'silent');
      if (why) failures.push({ index, kind: c.kind, why, body: show(c) });
      if (!probeAnswer || !(probeAnswer as { result?: unknown }).result) {
        failures.push({ index, kind: c.kind, why: `the next valid request failed: ${JSON.stringify(probeAnswer)}`, body: show(c) });
      }
      done++;
    }
    report(label, failures, tally);
    expect(done, 'cases run within the time budget').toBeGreaterThanOrEqual(required);
    expect(peer.garbage, 'non-JSON lines on stdout').toEqual([]);
    expect(failures.map((f) => `#${f.index} ${f.kind}: ${f.why} <- ${f.body}`), `seed ${SEED}`).toEqual([]);
    expect(crashes, `seed ${SEED}`).toEqual([]);
    expect(peer.handle.stopped).toBe(false);
  });
});
