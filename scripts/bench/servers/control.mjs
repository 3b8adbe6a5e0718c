// Shared by the bench servers: announce the URL, answer memory probes over IPC.
// A probe runs a full GC first (the server runs with --expose-gc), so heap figures are live data only.

export function announce(url, extra = {}) {
  process.send?.({ type: 'ready', url, pid: process.pid, ...extra });
}

export function answerMemoryProbes(extra = () => ({})) {
  process.on('message', async (msg) => {
    if (!msg || msg.type !== 'memory') return;
    if (msg.gc && typeof globalThis.gc === 'function') {
      // Two passes with a turn of the event loop between them: weak refs and finalizers settle.
      globalThis.gc();
      await new Promise((r) => setImmediate(r));
      globalThis.gc();
    }
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
