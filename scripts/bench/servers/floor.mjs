// The floor: node:http reading each JSON-RPC body, parsing it and answering it, with no MCP code at
// all (no schema validation, no SDK, no framework). Whatever a real server adds costs at least what
// this costs, so "of floor" says how close a server comes to the cost of HTTP and JSON themselves.
// It keeps 2025-era session ids in a map (so idle-session memory has a floor too) and answers SSE
// responses as one event when BENCH_RESPONSE_MODE=sse.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { announce, answerMemoryProbes, completeNames, greetText, README_TEXT } from './control.mjs';

const sse = process.env.BENCH_RESPONSE_MODE === 'sse';
// BENCH_FLOOR_WORK_US=n (profile.mjs passes it through; never set by `npm run bench`): each call first
// spins n µs on the CPU, to see what share of the floor a server with n µs more work per call reaches.
const workUs = Number(process.env.BENCH_FLOOR_WORK_US ?? 0);
const work = () => {
  const until = performance.now() + workUs / 1000;
  while (performance.now() < until);
};
const sessions = new Map();

function answer(msg) {
  const p = msg.params ?? {};
  switch (msg.method) {
    case 'initialize':
      return { protocolVersion: p.protocolVersion, capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} }, serverInfo: { name: 'floor', version: '1.0.0' } };
    case 'tools/call': {
      const echoed = p.arguments?.text;
      return { content: [{ type: 'text', text: JSON.stringify({ echoed }) }], structuredContent: { echoed } };
    }
    case 'prompts/get':
      return { messages: [{ role: 'user', content: { type: 'text', text: greetText(p.arguments?.name) } }] };
    case 'resources/read':
      return { contents: [{ uri: p.uri, mimeType: 'text/plain', text: README_TEXT }] };
    case 'completion/complete': {
      const values = completeNames(p.argument?.value);
      return { completion: { values, total: values.length, hasMore: false } };
    }
    default:
      return undefined;
  }
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers }).end(body);
}

const http = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', { 'content-type': 'application/json' });
    }
    if (workUs > 0) work();
    if (msg.id === undefined) return send(res, 202, '');
    const sid = req.headers['mcp-session-id'];
    const headers = {};
    if (msg.method === 'initialize') {
      const id = randomUUID();
      sessions.set(id, { createdAt: Date.now() });
      headers['mcp-session-id'] = id;
    } else if (typeof sid === 'string' && !sessions.has(sid)) {
      return send(res, 404, '');
    }
    const result = answer(msg);
    const reply = JSON.stringify(result === undefined ? { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } } : { jsonrpc: '2.0', id: msg.id, result });
    if (sse && typeof sid === 'string') return send(res, 200, `event: message\ndata: ${reply}\n\n`, { ...headers, 'content-type': 'text/event-stream' });
    send(res, 200, reply, { ...headers, 'content-type': 'application/json' });
  });
});
http.keepAliveTimeout = 5_000;
http.listen(0, '127.0.0.1', () => announce(`http://127.0.0.1:${http.address().port}/mcp`));
answerMemoryProbes(() => ({ sessions: sessions.size }));
