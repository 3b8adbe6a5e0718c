#!/usr/bin/env node
// Load test of mcp.rateLimit: starts a fa-mcp-sdk server on 127.0.0.1 with a
// known budget, has several callers send tools/call at a steady rate above it
// (and one caller below it), and prints per caller: sent, allowed, refused,
// and whether each got exactly its budget while the others were unaffected.
//
// Two phases, each inside one rate-limit window:
//   ip       scope "ip", callers told apart by X-Forwarded-For (webServer.trustProxy on);
//   subject  scope "subject", callers told apart by their bearer token (webServer.auth).
//
// Bounded and local: loopback only, a fixed duration per phase, a hard deadline
// for the whole run; stops by itself. Needs the built library (`pnpm run build`).
// Usage: node scripts/load/rate-limit-load.mjs [--phase ip|subject|all] [--seconds 5]
// Exit code: 0 when every caller got exactly what it was owed, 1 otherwise.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'packages', 'fa-mcp-sdk', 'dist', 'index.js');
if (!existsSync(dist)) {
  console.error(`${dist} is missing: build the library first (pnpm run build)`);
  process.exit(2);
}
const { initMcpServer, formatToolResult } = await import(pathToFileURL(dist).href);

const { values: args } = parseArgs({
  options: { phase: { type: 'string', default: 'all' }, seconds: { type: 'string', default: '5' } },
});
const SECONDS = Math.min(20, Math.max(1, Number(args.seconds)));
const BUDGET = 20; // maxRequests per window, per caller
const WINDOW_MS = (SECONDS + 10) * 1000; // the whole phase fits in one window
const HARD_DEADLINE_MS = 4 * (SECONDS + 10) * 1000;
const HOST = '127.0.0.1';

const deadline = setTimeout(() => {
  console.error(`hard deadline of ${HARD_DEADLINE_MS} ms reached; stopping`);
  process.exit(2);
}, HARD_DEADLINE_MS);
deadline.unref();

/** Callers: three above the budget at different rates, one below it. */
const CALLERS = [
  { name: 'A', rate: 10 },
  { name: 'B', rate: 20 },
  { name: 'C', rate: 6 },
  { name: 'quiet', rate: 2 },
];
const TOKENS = Object.fromEntries(CALLERS.map((c, i) => [c.name, `load-token-${c.name}-${'x'.repeat(32)}-${i}`]));

const tools = [
  {
    name: 'echo',
    description: 'Echoes text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: ({ arguments: a }) => formatToolResult({ echoed: String(a.text) }),
  },
];

async function startServer(scope) {
  return initMcpServer(
    { tools, serverInfo: { name: 'rate-limit-load', version: '1.0.0' } },
    {
      handleSignals: false,
      env: {},
      cwd: root,
      nodeEnv: 'test',
      config: {
        logger: { level: 'silent' },
        webServer: {
          host: HOST,
          port: 0,
          trustProxy: scope === 'ip',
          ...(scope === 'subject' ? { auth: { enabled: true, permanentServerTokens: Object.values(TOKENS) } } : {}),
        },
        mcp: {
          stateless: true,
          responseMode: 'json',
          httpErrorStatus: true, // refusals as HTTP 429 with Retry-After
          rateLimit: { enabled: true, scope, maxRequests: BUDGET, windowMs: WINDOW_MS },
        },
      },
    },
  );
}

async function call(url, caller, scope, seq) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  if (scope === 'ip') headers['x-forwarded-for'] = `203.0.113.${CALLERS.indexOf(caller) + 1}`;
  else headers.authorization = `Bearer ${TOKENS[caller.name]}`;
  const body = { jsonrpc: '2.0', id: seq, method: 'tools/call', params: { name: 'echo', arguments: { text: `${caller.name}-${seq}` } } };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const json = await res.json().catch(() => undefined);
  if (res.status === 200 && json?.result && !json.result.isError) return { kind: 'allowed' };
  const retryAfter = Number(res.headers.get('retry-after'));
  if (res.status === 429 && json?.error?.code === -32003 && json.error.data?.retryAfter >= 1 && retryAfter >= 1) return { kind: 'refused' };
  return { kind: 'other', detail: `${res.status} ${JSON.stringify(json).slice(0, 160)}` };
}

async function runPhase(scope) {
  const server = await startServer(scope);
  if (new URL(server.url).hostname !== HOST) throw new Error(`refusing to load anything but loopback: ${server.url}`);
  const stats = new Map(CALLERS.map((c) => [c.name, { sent: 0, allowed: 0, refused: 0, other: 0, firstOther: '' }]));
  const pending = [];
  const started = Date.now();
  const timers = CALLERS.map((caller) => {
    const s = stats.get(caller.name);
    return setInterval(() => {
      if (Date.now() - started >= SECONDS * 1000) return;
      const seq = ++s.sent;
      pending.push(
        call(server.url, caller, scope, seq).then(
          (r) => {
            s[r.kind]++;
            if (r.kind === 'other' && !s.firstOther) s.firstOther = r.detail;
          },
          (err) => {
            s.other++;
            if (!s.firstOther) s.firstOther = String(err);
          },
        ),
      );
    }, 1000 / caller.rate);
  });
  await new Promise((r) => setTimeout(r, SECONDS * 1000 + 50));
  timers.forEach(clearInterval);
  await Promise.all(pending);
  const elapsed = Date.now() - started;
  await server.stop('load test finished');

  let ok = elapsed < WINDOW_MS;
  console.log(`\nphase "${scope}": budget ${BUDGET} per caller per ${WINDOW_MS / 1000} s window, ${SECONDS} s of steady load (${elapsed} ms)`);
  console.log('caller  rate/s  sent  allowed  refused  other  expected allowed  verdict');
  for (const caller of CALLERS) {
    const s = stats.get(caller.name);
    const expected = Math.min(BUDGET, s.sent);
    const good = s.allowed === expected && s.refused === s.sent - expected && s.other === 0;
    ok &&= good;
    const verdict = good ? (s.sent > BUDGET ? 'exactly its budget' : 'unaffected (all allowed)') : `WRONG ${s.firstOther}`;
    console.log(
      `${caller.name.padEnd(7)} ${String(caller.rate).padStart(6)} ${String(s.sent).padStart(5)} ${String(s.allowed).padStart(8)} ${String(s.refused).padStart(8)} ${String(s.other).padStart(6)} ${String(expected).padStart(17)}  ${verdict}`,
    );
  }
  return ok;
}

const phases = args.phase === 'all' ? ['ip', 'subject'] : [args.phase];
let allOk = true;
for (const phase of phases) {
  if (phase !== 'ip' && phase !== 'subject') throw new Error(`unknown phase ${phase}`);
  allOk = (await runPhase(phase)) && allOk;
}
console.log(`\n${allOk ? 'PASS' : 'FAIL'}: every caller over the budget got exactly ${BUDGET} calls, the quiet caller got all of its calls`);
process.exit(allOk ? 0 : 1);
