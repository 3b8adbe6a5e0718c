/**
 * The rows of `@modelcontextprotocol/ext-tasks` (requester on an SDK v2
 * client): a task created, polled to its result, and a task cancelled, on the
 * task tools of examples/conformance-server. On 2025-11-25 the session sends
 * through the client; on 2026-07-28 the package asks the host for a raw
 * request path (`rawDispatch`, since the SDK's codecs reject the 2026 task
 * shapes) and the request framing.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome, toolDeclarationFromMcpTool, type JsonRpcResponse, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { connectWire2026, WireError } from 'fa-mcp-sdk/testing';
import type { Cell, MatrixRow } from './matrix-types.js';

type JsonValue = Extract<JsonRpcResponse, { kind: 'result' }>['result'];

const CLIENT_INFO = { name: 'matrix-ext-tasks', version: '1.0.0' };
const TASK_CAPABILITIES = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/**
 * The host's raw request path for 2026-07-28: the library's own wire client
 * (`fa-mcp-sdk/testing`, one POST per request with the envelope, Mcp-Method and
 * Mcp-Name), which owns the JSON-RPC `id`; the package hands over
 * `{method, params}` with its framing in `params._meta`, which the wire client's
 * envelope repeats (the same revision, client info and task capability).
 */
function rawDispatchTo(mcpUrl: string): RawClientDispatch {
  const wire = connectWire2026({ url: mcpUrl }, { clientInfo: CLIENT_INFO, capabilities: TASK_CAPABILITIES, timeoutMs: 30_000 });
  return async (request) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    try {
      return { kind: 'result', result: (await wire.request(method, params)) as JsonValue } as JsonRpcResponse;
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      return { kind: 'error', error: { code: err.code, message: err.message, ...(err.data ? { data: err.data as JsonValue } : {}) } } as JsonRpcResponse;
    }
  };
}

export async function runTaskChecks(mcpUrl: string, revision: MatrixRow['revision'] = '2025-11-25'): Promise<Cell> {
  const modern = revision === '2026-07-28';
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: modern ? { pin: '2026-07-28' } : 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const session = modern
    ? createTaskSessionFromClient(client, { endpointId: 'matrix', rawDispatch: rawDispatchTo(mcpUrl), v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities: TASK_CAPABILITIES } })
    : createTaskSessionFromClient(client, { endpointId: 'matrix' });
  try {
    // The tool's declaration (execution.taskSupport) tells the session it may run as a task.
    const tool = (await client.listTools()).tools.find((t) => t.name === 'slow_compute');
    if (!tool) throw new Error('slow_compute is not listed');
    const options = { declaration: toolDeclarationFromMcpTool(tool), task: { preference: 'require' as const } };
    const done = await session.callTool('slow_compute', { seconds: 0.2, label: 'matrix' }, options);
    if (done.kind !== 'task') throw new Error(`expected a task, got ${done.kind}`);
    const result = resultFromTaskOutcome((await done.settle()).outcome) as { content?: Array<{ text?: string }> };
    if (result.content?.[0]?.text !== 'Computed matrix after 0.2 s') throw new Error(`result: ${JSON.stringify(result).slice(0, 160)}`);
    const long = await session.callTool('slow_compute', { seconds: 30 }, options);
    await long.cancel();
    const outcome = (await long.settle()).outcome;
    if (outcome.status !== 'cancelled') throw new Error(`cancel: ${outcome.status}`);
    return { state: 'works' };
  } catch (err) {
    return { state: 'fails', why: String(err instanceof Error ? err.message : err).slice(0, 160) };
  } finally {
    await session.close().catch(() => undefined);
    await client.close();
  }
}
