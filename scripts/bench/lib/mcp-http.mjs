// Just enough MCP over HTTP for the bench: open 2025-era sessions, and the request of each era for
// each measured method (lib/workloads.mjs).
import { ECHO_TEXT, workload } from './workloads.mjs';
export const ERA_2025 = '2025-11-25';
export const ERA_2026 = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';
const CLIENT = { name: 'fa-mcp-bench', version: '1.0.0' };

function firstMessage(text, contentType) {
  if (!contentType?.includes('text/event-stream')) return JSON.parse(text);
  // The first event may be an empty priming event (resumability): take the first with data.
  const data = text.split('\n').find((line) => line.startsWith('data:') && line.slice(5).trim() !== '');
  return data ? JSON.parse(data.slice(5)) : undefined;
}

/** Opens a 2025-era session (initialize + notifications/initialized); returns its id. */
export async function openSession(url, extra = {}) {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: ERA_2025, capabilities: {}, clientInfo: CLIENT } }),
  });
  const text = await init.text();
  if (init.status !== 200) throw new Error(`initialize on ${url} answered HTTP ${init.status}: ${text.slice(0, 300)}`);
  const sid = init.headers.get('mcp-session-id');
  const reply = firstMessage(text, init.headers.get('content-type'));
  if (!sid || !reply?.result) throw new Error(`initialize failed: HTTP ${init.status} ${JSON.stringify(reply)}`);
  const note = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sid, 'mcp-protocol-version': ERA_2025, ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await note.arrayBuffer();
  return sid;
}

export async function openSessions(url, count, extra = {}, parallel = 16) {
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        ids.push(await openSession(url, extra));
      }
    }),
  );
  return ids;
}

export function callHeaders(era, sessionId, extra = {}, method = 'tools/call') {
  const { name } = workload(method);
  return era === '2026'
    ? { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': ERA_2026, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}), ...extra }
    : { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': ERA_2025, 'mcp-session-id': sessionId, ...extra };
}

const META_2026 = { 'io.modelcontextprotocol/protocolVersion': ERA_2026, 'io.modelcontextprotocol/clientInfo': CLIENT, 'io.modelcontextprotocol/clientCapabilities': {} };

export function callBody(era, id, method = 'tools/call') {
  const { params } = workload(method);
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: era === '2026' ? { ...params, _meta: META_2026 } : params });
}

/** One request, checked: the bench refuses to measure a server that answers wrongly. */
export async function checkCall(url, era, sessionId, extra = {}, method = 'tools/call') {
  const res = await fetch(url, { method: 'POST', headers: callHeaders(era, sessionId, extra, method), body: callBody(era, 1, method) });
  const text = await res.text();
  const msg = firstMessage(text, res.headers.get('content-type'));
  const ok = method === 'tools/call' ? msg?.result?.structuredContent?.echoed === ECHO_TEXT : msg?.result !== undefined && text.includes(workload(method).expect);
  if (res.status !== 200 || !ok) {
    throw new Error(`${method} on ${url} (${era}) answered HTTP ${res.status}: ${JSON.stringify(msg ?? text).slice(0, 300)}`);
  }
}

/**
 * What runLoad needs to load one running server on one era: its headers and, on 2025, a session per
 * connection; checked first with one call.
 */
export async function loadFor(server, era, connections, method = 'tools/call') {
  const headers = server.headers ?? {};
  const sessions = era === '2025' ? await openSessions(server.url, connections, headers) : [];
  await checkCall(server.url, era, sessions[0], headers, method);
  return { url: server.url, era, sessions, headers, connections, method };
}
