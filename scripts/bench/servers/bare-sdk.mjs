// The baseline: a minimal server written directly on the official MCP TypeScript SDK v2, the way its
// documentation wires one process for both eras: node:http, 2025-era Streamable HTTP sessions
// (one McpServer per session) and createMcpHandler for 2026-07-28 (one McpServer per request).
// BENCH_RESPONSE_MODE=json|sse selects how 2025-era POSTs are answered.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { completable, createMcpHandler, isLegacyRequest, McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { z } from 'zod';
import { announce, answerMemoryProbes, completeNames, ECHO_INPUT_SCHEMA, ECHO_OUTPUT_SCHEMA, GREET_PROMPT, greetText, README_TEXT, README_URI } from './control.mjs';

const jsonResponses = process.env.BENCH_RESPONSE_MODE !== 'sse';
const inputSchema = fromJsonSchema(ECHO_INPUT_SCHEMA);
const outputSchema = fromJsonSchema(ECHO_OUTPUT_SCHEMA);
// The prompt's argument with its completion, the SDK's documented way (a completable zod schema).
const greetArgs = z.object({ name: completable(z.string(), (value) => completeNames(value)) });

function buildServer() {
  const server = new McpServer({ name: 'bare-sdk-bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema, outputSchema }, async ({ text }) => ({
    content: [{ type: 'text', text: JSON.stringify({ echoed: text }) }],
    structuredContent: { echoed: text },
  }));
  server.registerPrompt(GREET_PROMPT, { description: 'Greets someone.', argsSchema: greetArgs }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: greetText(name) } }],
  }));
  server.registerResource('readme', README_URI, { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: README_TEXT }] }));
  return server;
}

const sessions = new Map();
const modern = toNodeHandler(createMcpHandler(() => buildServer(), { legacy: 'reject' }));

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
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
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'POST' && !(await isLegacyRequest(await toWebRequest(req, body), body))) {
      await modern(req, res, body);
      return;
    }
    if (req.method === 'POST' && body?.method === 'initialize') {
      const transport = new NodeStreamableHTTPServerTransport({
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
http.listen(0, '127.0.0.1', () => {
  announce(`http://127.0.0.1:${http.address().port}/mcp`);
});
answerMemoryProbes(() => ({ sessions: sessions.size }));
