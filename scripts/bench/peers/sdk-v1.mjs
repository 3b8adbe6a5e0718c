// Peer: the official MCP TypeScript SDK v1 (npm's `latest` line, what most servers use), wired the way
// its documentation shows a Streamable HTTP server with sessions: node:http, one McpServer and one
// StreamableHTTPServerTransport per session, zod schemas. v1 does not speak 2026-07-28.
// BENCH_RESPONSE_MODE=json|sse selects how POSTs are answered.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';
import { announce, answerMemoryProbes, completeNames, GREET_PROMPT, greetText, README_TEXT, README_URI } from '../servers/control.mjs';

const jsonResponses = process.env.BENCH_RESPONSE_MODE !== 'sse';

function buildServer() {
  const server = new McpServer({ name: 'sdk-v1-bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string().max(1000) }, outputSchema: { echoed: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: JSON.stringify({ echoed: text }) }],
    structuredContent: { echoed: text },
  }));
  server.registerPrompt(GREET_PROMPT, { description: 'Greets someone.', argsSchema: { name: completable(z.string(), (value) => completeNames(value)) } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: greetText(name) } }],
  }));
  server.registerResource('readme', README_URI, { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: README_TEXT }] }));
  return server;
}

const sessions = new Map();

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

const http = createServer(async (req, res) => {
  try {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const transport = sessions.get(sid);
      if (!transport) return void res.writeHead(404).end();
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'POST' && body?.method === 'initialize') {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: jsonResponses,
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await buildServer().connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    res.writeHead(400).end();
  } catch (err) {
    console.error(err);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});
http.keepAliveTimeout = 5_000;
http.listen(0, '127.0.0.1', () => announce(`http://127.0.0.1:${http.address().port}/mcp`));
answerMemoryProbes(() => ({ sessions: sessions.size }));
