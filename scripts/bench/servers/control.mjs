import { writeHeapSnapshot } from 'node:v8';

// Shared by the bench servers: announce the URL, answer memory probes over IPC.
// A probe runs a full GC first (the server runs with --expose-gc), so heap figures are live data only.

export function announce(url, extra = {}) {
  process.send?.({ type: 'ready', url, pid: process.pid, ...extra });
}

/**
 * Full GC passes with timer turns between them: FinalizationRegistry callbacks (undici's Request keeps each
 * request's AbortSignal until its finalizer runs) and weak refs settle, so garbage is not counted as live.
 */
async function settle() {
  if (typeof globalThis.gc !== 'function') return;
  for (let pass = 0; pass < 3; pass++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  globalThis.gc();
}

export function answerMemoryProbes(extra = () => ({})) {
  process.on('message', async (msg) => {
    if (msg?.type === 'snapshot') {
      // idle-heap.mjs: a heap snapshot after the same GC passes as a memory probe.
      await settle();
      const file = writeHeapSnapshot(msg.path);
      process.send?.({ type: 'snapshot', id: msg.id, file });
      return;
    }
    if (!msg || msg.type !== 'memory') return;
    if (msg.gc) await settle();
    const m = process.memoryUsage();
    process.send?.({ type: 'memory', id: msg.id, rss: m.rss, heapUsed: m.heapUsed, external: m.external, ...extra() });
  });
  process.on('disconnect', () => process.exit(0));
  // A normal exit, so `--cpu-prof` (BENCH_CPU_PROF=dir) writes its profile.
  process.on('SIGTERM', () => process.exit(0));
}

export const ECHO_INPUT_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string', maxLength: 1000 } },
  required: ['text'],
  additionalProperties: false,
};
export const ECHO_OUTPUT_SCHEMA = {
  type: 'object',
  properties: { echoed: { type: 'string' } },
  required: ['echoed'],
};

// The other methods the bench measures (prompts/get, resources/read, completion/complete): the same
// prompt, resource and completion on every server.
export const GREET_PROMPT = 'greet';
export const GREET_NAMES = ['benchmark', 'bench', 'bear', 'beacon', 'cedar'];
export const greetText = (name) => `Hello, ${name}!`;
export const completeNames = (value) => GREET_NAMES.filter((n) => n.startsWith(value ?? ''));
export const README_URI = 'bench://readme';
export const README_TEXT = 'The bench readme: a short static text resource.';
