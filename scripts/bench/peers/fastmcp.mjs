// Peer: fastmcp (punkpeye's TypeScript framework on top of SDK v1), its documented httpStream server
// with sessions and zod schemas. It does not speak 2026-07-28. BENCH_RESPONSE_MODE=json|sse selects
// `httpStream.enableJsonResponse`.
import { createServer } from 'node:net';
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { announce, answerMemoryProbes, completeNames, GREET_PROMPT, greetText, README_TEXT, README_URI } from '../servers/control.mjs';

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

// Warnings and errors only, as the other servers log (fastmcp logs every session at info by default).
const quiet = () => {};
const logger = { debug: quiet, info: quiet, log: quiet, warn: console.warn, error: console.error };
const server = new FastMCP({ name: 'fastmcp-bench', version: '1.0.0', logger, ping: { enabled: false }, roots: { enabled: false } });
server.addTool({
  name: 'echo',
  description: 'Echoes its text.',
  parameters: z.object({ text: z.string().max(1000) }),
  outputSchema: z.object({ echoed: z.string() }),
  execute: async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ echoed: text }) }], structuredContent: { echoed: text } }),
});
server.addPrompt({
  name: GREET_PROMPT,
  description: 'Greets someone.',
  arguments: [{ name: 'name', required: true, complete: async (value) => ({ values: completeNames(value) }) }],
  load: async ({ name }) => greetText(name),
});
server.addResource({ uri: README_URI, name: 'readme', mimeType: 'text/plain', load: async () => ({ text: README_TEXT }) });

const port = await freePort();
await server.start({ transportType: 'httpStream', httpStream: { host: '127.0.0.1', port, endpoint: '/mcp', enableJsonResponse: process.env.BENCH_RESPONSE_MODE !== 'sse' } });
announce(`http://127.0.0.1:${port}/mcp`);
answerMemoryProbes(() => ({ sessions: server.sessions.length }));
