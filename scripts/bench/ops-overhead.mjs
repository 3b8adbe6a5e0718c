#!/usr/bin/env node
// What metrics and tracing cost per tool call, measured in one run against the same server with
// them off: `node scripts/bench/ops-overhead.mjs [--calls 2000] [--rounds 7] [--json out.json]`.
//
// Three configurations of one server (a tool that echoes its argument):
//   off       webServer.metrics.enabled=false, tracing.enabled=false
//   on        metrics and tracing on (the defaults), no OpenTelemetry SDK registered
//   on+sdk    the same with an OpenTelemetry SDK recording every span (BasicTracerProvider,
//             in-memory exporter, AsyncLocalStorage context manager)
// Two measurements of each: end to end (the official client over an in-process stdio pair, so
// the whole server path runs: wire tap, request span, child logger, pipeline, counters) and the
// pipeline alone (core.pipeline.run with the tool-call steps). Batches alternate between the
// configurations and the median batch is kept, so machine noise hits all of them alike.
// The library is bundled from its TypeScript sources with esbuild (no dist/ needed).
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sdkDir = join(root, 'packages', 'fa-mcp-sdk');
const outDir = join(sdkDir, 'node_modules', '.cache', 'fa-mcp-ops-bench');
const sdkRequire = createRequire(join(sdkDir, 'package.json'));

const { values: args } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '7' }, json: { type: 'string' } },
});
const CALLS = Number(args.calls);
const ROUNDS = Number(args.rounds);

async function bundle() {
  const esbuild = createRequire(sdkRequire.resolve('tsup'))('esbuild');
  mkdirSync(outDir, { recursive: true });
  const entry = join(outDir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export * from ${JSON.stringify(join(sdkDir, 'src', 'index.ts'))};`,
      `export { startTestServer } from ${JSON.stringify(join(sdkDir, 'src', 'testing', 'index.ts'))};`,
    ].join('\n'),
  );
  const outfile = join(outDir, 'lib.mjs');
  await esbuild.build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const lib = await bundle();
  const echo = {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    handler: ({ arguments: a }) => lib.formatToolResult({ echoed: a.text }),
  };
  const start = async (on) =>
    lib.startTestServer(
      { tools: [echo] },
      {
        target: { transport: 'stdio', era: '2025', label: 'stdio/2025' },
        config: { webServer: { metrics: { enabled: on } }, tracing: { enabled: on }, mcp: { rateLimit: { enabled: false } } },
      },
    );

  const servers = { off: await start(false), on: await start(true) };
  const clients = { off: await servers.off.connect(), on: await servers.on.connect() };

  const e2e = async (name) => {
    const client = clients[name];
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await client.callTool({ name: 'echo', arguments: { text: 'bench' } });
    return ((performance.now() - t0) * 1000) / CALLS; // µs per call
  };
  const direct = async (name) => {
    const core = servers[name].handle.core;
    const ctx = { requestId: 'bench', era: '2025', transport: 'stdio', clientCapabilities: {} };
    const client = { log: async () => {}, elicit: async () => ({}), sample: async () => ({}), listRoots: async () => ({}), notify: async () => {}, resumed: false };
    const signal = new AbortController().signal;
    const t0 = performance.now();
    for (let i = 0; i < CALLS * 5; i++) {
      const op = { method: 'tools/call', ctx, params: { name: 'echo', arguments: { text: 'bench' } }, signal, client, sendProgress: () => {}, state: new Map() };
      await core.pipeline.run(op, core.executeTool);
    }
    return ((performance.now() - t0) * 1000) / (CALLS * 5);
  };

  const measure = async (names, label) => {
    const samples = Object.fromEntries(names.map((n) => [n, { e2e: [], pipeline: [] }]));
    for (const n of names) await e2e(n); // warm up
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? names : [...names].reverse();
      for (const n of order) samples[n].e2e.push(await e2e(n));
      for (const n of order) samples[n].pipeline.push(await direct(n));
    }
    return Object.fromEntries(names.map((n) => [n === 'on' ? label : n, { e2e: median(samples[n].e2e), pipeline: median(samples[n].pipeline) }]));
  };

  const results = await measure(['off', 'on'], 'on');

  // The same with an OpenTelemetry SDK recording every span.
  const { trace, context } = sdkRequire('@opentelemetry/api');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = sdkRequire('@opentelemetry/sdk-trace-base');
  const { AsyncLocalStorageContextManager } = sdkRequire('@opentelemetry/context-async-hooks');
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  const drain = setInterval(() => exporter.reset(), 200);
  const withSdk = await measure(['off', 'on'], 'on+sdk');
  clearInterval(drain);
  results['on+sdk'] = withSdk['on+sdk'];
  results.off = { e2e: median([results.off.e2e, withSdk.off.e2e]), pipeline: median([results.off.pipeline, withSdk.off.pipeline]) };

  for (const c of Object.values(clients)) await c.close().catch(() => {});
  for (const s of Object.values(servers)) await s.stop();
  await provider.shutdown();

  const base = results.off;
  const rows = ['off', 'on', 'on+sdk'].map((name) => {
    const r = results[name];
    return {
      config: name,
      e2eUsPerCall: +r.e2e.toFixed(1),
      e2eRatio: +(r.e2e / base.e2e).toFixed(3),
      e2eCostUs: +(r.e2e - base.e2e).toFixed(1),
      pipelineUsPerCall: +r.pipeline.toFixed(2),
      pipelineRatio: +(r.pipeline / base.pipeline).toFixed(3),
      pipelineCostUs: +(r.pipeline - base.pipeline).toFixed(2),
    };
  });
  console.log(`ops overhead: ${CALLS} calls per batch, ${ROUNDS} rounds, median batch; node ${process.version}`);
  console.log('| config | end to end µs/call | ratio | cost µs | pipeline µs/call | ratio | cost µs |');
  console.log('|--------|------------------:|------:|--------:|-----------------:|------:|--------:|');
  for (const r of rows) {
    console.log(`| ${r.config} | ${r.e2eUsPerCall} | ${r.e2eRatio} | ${r.e2eCostUs} | ${r.pipelineUsPerCall} | ${r.pipelineRatio} | ${r.pipelineCostUs} |`);
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ calls: CALLS, rounds: ROUNDS, node: process.version, rows }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
