/**
 * The row of `@modelcontextprotocol/ext-tasks` (requester on an SDK v2 client):
 * a task created, polled to its result, and a task cancelled, on the task tools
 * of examples/conformance-server.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';
import type { Cell } from './matrix-types.js';

export async function runTaskChecks(mcpUrl: string): Promise<Cell> {
  const client = new Client({ name: 'matrix-ext-tasks', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const session = createTaskSessionFromClient(client, { endpointId: 'matrix' });
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
