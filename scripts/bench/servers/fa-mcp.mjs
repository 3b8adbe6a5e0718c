// fa-mcp-sdk under test, built from the current sources. BENCH_PROFILE=off: every optional feature off
// (no rate limits, concurrency cap, auth, metrics or tracing); BENCH_PROFILE=on: every hardening and
// operations feature this build has, switched on. Features are found in the configuration schema, so
// the bench keeps working while they are added; the ready message says what is on and what is absent.
// BENCH_RESPONSE_MODE=json|sse as for the bare server.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { configSchema, initMcpServer } from '../../../packages/fa-mcp-sdk/src/index.js';
import { announce, answerMemoryProbes, completeNames, ECHO_INPUT_SCHEMA, ECHO_OUTPUT_SCHEMA, GREET_PROMPT, greetText, README_TEXT, README_URI } from './control.mjs';
import { benchEvents } from './events.mjs';

const on = process.env.BENCH_PROFILE === 'on';
// BENCH_ONLY=ratelimit,auth,metrics,tracing (with BENCH_PROFILE=on): only those features, to see what each costs.
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : undefined;
const want = (feature) => on && (!only || only.has(feature));
const responseMode = process.env.BENCH_RESPONSE_MODE === 'sse' ? 'sse' : 'json';
const schemaHas = (...path) => {
  let node = configSchema;
  for (const key of path) node = node?.properties?.[key];
  return node !== undefined;
};

const features = ['input validation (ajv)', 'output validation'];
const absent = [];
const config = {
  logger: { level: 'warn', format: 'json' },
  webServer: { host: '127.0.0.1', port: 0 },
  mcp: {
    transportType: 'http',
    responseMode,
    legacySse: false,
    // Every bench session comes from one address and one subject: the per-caller cap must not evict them.
    sessions: { maxSessions: 5_000, ...(schemaHas('mcp', 'sessions', 'maxPerCaller') ? { maxPerCaller: 5_000 } : {}) },
    // Budgets far above what the bench sends: the limiter does all its work and never refuses.
    rateLimit: { enabled: want('ratelimit'), scope: want('auth') && schemaHas('webServer', 'auth') ? 'subject' : 'ip', maxRequests: 100_000_000, windowMs: 60_000, perTool: { echo: { maxRequests: 100_000_000, windowMs: 60_000 } }, maxConcurrentPerSubject: 1_000 },
  },
};
// BENCH_SLOW_SERVER=1 (instructions.mjs, a server ~50x slower under valgrind): requests queue long before
// the server reads them, so the slow-client deadlines are raised out of the way (nothing else changes).
if (process.env.BENCH_SLOW_SERVER === '1' && schemaHas('webServer', 'timeouts')) {
  config.webServer.timeouts = { headersMs: 600_000, bodyMs: 600_000, requestMs: 600_000 };
}
if (want('ratelimit')) features.push('rate limit (general + per tool)', 'concurrency cap');
// BENCH_DB_URL (sessions-store.mjs): the main database and the LISTEN/NOTIFY bus, as a multi-instance
// deployment has them; with BENCH_SESSIONS_STORE=postgres, 2025-era sessions are kept there too.
if (process.env.BENCH_DB_URL) {
  config.mcp.notifications = { bus: 'postgres' };
  config.db = { postgres: { dbs: { main: { url: process.env.BENCH_DB_URL } } } };
  // Under valgrind (BENCH_SLOW_SERVER) a connection takes far longer to come up than the default allows.
  if (process.env.BENCH_SLOW_SERVER === '1') config.db.postgres.dbs.main.connectionTimeoutMs = 600_000;
  features.push('main database and bus in PostgreSQL');
  // BENCH_DB_AMBIENT_SCOPE=false: no AsyncLocalStorage scope around requests (db.ambientScope).
  if (process.env.BENCH_DB_AMBIENT_SCOPE === 'false' && schemaHas('db', 'ambientScope')) {
    config.db.ambientScope = false;
    features.push('no ambient database scope');
  }
}
if (process.env.BENCH_SESSIONS_STORE === 'postgres') {
  config.mcp.sessions.store = 'postgres';
  features.push('sessions in PostgreSQL');
}

// BENCH_AUDIT (audit-cost.mjs, with BENCH_PROFILE=on): the audit trail (mcp.audit) on top of everything on:
// jsonl-async (JSON lines appended to a file of the temporary working folder), pg-async or pg-sync (the
// table fa_mcp_audit in the main database: BENCH_DB_URL).
const cwd = mkdtempSync(join(tmpdir(), 'fa-mcp-bench-'));
const audit = process.env.BENCH_AUDIT;
if (audit) {
  const [sink, mode] = audit.split('-');
  if (!['jsonl', 'pg'].includes(sink) || !['async', 'sync'].includes(mode)) throw new Error(`BENCH_AUDIT=${audit}: expected jsonl-async, pg-async or pg-sync`);
  if (sink === 'pg' && !config.db) throw new Error(`BENCH_AUDIT=${audit} needs BENCH_DB_URL`);
  config.mcp.audit = { sink: sink === 'pg' ? 'postgres' : 'jsonl', mode, ...(sink === 'jsonl' ? { file: join(cwd, 'audit.jsonl') } : {}), otel: false };
  features.push(`audit trail (${sink === 'pg' ? 'PostgreSQL' : 'JSON lines file'}, ${mode})`);
}

// BENCH_EVENTS=1 (events-cost.mjs): the Events extension, one event type on every mode and a tool that emits it (servers/events.mjs).
const events = process.env.BENCH_EVENTS === '1' ? benchEvents(config) : undefined;
if (events) features.push(events.feature);

let token;
if (schemaHas('webServer', 'auth', 'jwtToken')) {
  config.webServer.auth = { enabled: want('auth') };
  if (want('auth')) {
    // JWT verified with a local public key (ES256); the bench mints one token for its calls.
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    config.webServer.auth.jwtToken = { mode: 'localKey', publicKey: publicKey.export({ type: 'spki', format: 'pem' }), issuer: 'fa-mcp-bench' };
    token = await new SignJWT({ scope: 'bench' }).setProtectedHeader({ alg: 'ES256' }).setSubject('bench-client').setIssuer('fa-mcp-bench').setIssuedAt().setExpirationTime('2h').sign(privateKey);
    features.push('JWT auth (ES256, localKey)');
  }
} else absent.push('JWT auth');
if (schemaHas('webServer', 'metrics')) {
  config.webServer.metrics = { enabled: want('metrics') };
  if (want('metrics')) features.push('Prometheus metrics');
} else absent.push('metrics');
if (schemaHas('tracing')) {
  config.tracing = { enabled: want('tracing') };
  if (want('tracing')) features.push('tracing (OpenTelemetry API, no SDK registered)');
} else absent.push('tracing');

const handle = await initMcpServer(
  {
    serverInfo: { name: 'fa-mcp-bench', version: '1.0.0' },
    tools: [
      {
        name: 'echo',
        description: 'Echoes its text.',
        inputSchema: ECHO_INPUT_SCHEMA,
        outputSchema: ECHO_OUTPUT_SCHEMA,
        handler: async ({ arguments: args }) => ({
          content: [{ type: 'text', text: JSON.stringify({ echoed: args.text }) }],
          structuredContent: { echoed: args.text },
        }),
      },
      ...(events?.tools ?? []),
    ],
    ...(events ? { events: events.events } : {}),
    prompts: [
      {
        name: GREET_PROMPT,
        description: 'Greets someone.',
        arguments: [{ name: 'name', required: true, complete: (value) => completeNames(value) }],
        content: (args) => greetText(args.name),
      },
    ],
    resources: [{ uri: README_URI, name: 'readme', mimeType: 'text/plain', content: README_TEXT }],
  },
  { cwd, env: {}, nodeEnv: 'production', handleSignals: false, config },
);
announce(handle.url, { profile: on ? 'on' : 'off', features: on ? features : [], absent, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
answerMemoryProbes(() => ({ sessions: handle.http?.mcp.sessions.size ?? 0 }));
