/**
 * Rows of the official SDK clients: v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/client`), over Streamable HTTP, legacy SSE and stdio.
 */
import { Client as ClientV2, SSEClientTransport as SseV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2, getDefaultEnvironment as envV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as SseV1 } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport as StdioV1, getDefaultEnvironment as envV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientSurface, ToolResult } from './demo-checks.js';
import type { MatrixRow } from './matrix-types.js';

export type Transport = MatrixRow['transport'];
export interface Endpoint {
  /** Streamable HTTP URL of the demo (in this process). */
  mcpUrl: string;
  sseUrl: string;
  /** `node <start>` runs the demo over stdio. */
  stdioStart: string;
}

export interface Connected {
  surface: ClientSurface;
  close(): Promise<void>;
}

const stdioEnv = { MCP_TRANSPORT_TYPE: 'stdio', LOG_LEVEL: 'warn' };
const answer = { action: 'accept' as const, content: { answer: 'green' } };

/** An SDK v1 client that answers elicitation, connected over `wire`, as a row's surface. */
export async function connectV1Over(wire: Parameters<ClientV1['connect']>[0]): Promise<Connected> {
  const client = new ClientV1({ name: 'matrix-sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => answer);
  await client.connect(wire);
  const surface: ClientSurface = {
    listTools: () => client.listTools(),
    listPrompts: () => client.listPrompts(),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    callTool: async (name, args, opts) => (await client.callTool({ name, arguments: args }, CallToolResultSchema, opts)) as ToolResult,
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    readResource: async (uri) => (await client.readResource({ uri })) as { contents: Array<{ text?: string }> },
    complete: async (name, argument, value) => (await client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } })).completion.values,
    callOptions: true,
    elicitation: true,
  };
  return { surface, close: () => client.close() };
}

/** A stdio process the SDK v1 client talks to (a server, or a bridge such as mcp-remote). */
export function stdioV1(command: string, args: string[], env: Record<string, string>): StdioV1 {
  return new StdioV1({ command, args, env: { ...envV1(), ...env }, stderr: 'ignore' });
}

export function connectV1(transport: Transport, at: Endpoint): Promise<Connected> {
  return connectV1Over(
    transport === 'Streamable HTTP' ? new HttpV1(new URL(at.mcpUrl)) : transport === 'legacy SSE' ? new SseV1(new URL(at.sseUrl)) : stdioV1(process.execPath, [at.stdioStart], stdioEnv),
  );
}

export async function connectV2(transport: Transport, revision: MatrixRow['revision'], at: Endpoint): Promise<Connected> {
  const client = new ClientV2(
    { name: 'matrix-sdk-v2', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: revision === '2026-07-28' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  client.setRequestHandler('elicitation/create', async () => answer);
  const wire =
    transport === 'Streamable HTTP'
      ? new HttpV2(new URL(at.mcpUrl))
      : transport === 'legacy SSE'
        ? new SseV2(new URL(at.sseUrl))
        : new StdioV2({ command: process.execPath, args: [at.stdioStart], env: { ...envV2(), ...stdioEnv }, stderr: 'ignore' });
  await client.connect(wire);
  const surface: ClientSurface = {
    listTools: () => client.listTools(),
    listPrompts: () => client.listPrompts(),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    callTool: async (name, args, opts) => (await client.callTool({ name, arguments: args }, opts)) as ToolResult,
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    readResource: async (uri) => (await client.readResource({ uri })) as { contents: Array<{ text?: string }> },
    complete: async (name, argument, value) => (await client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } })).completion.values,
    callOptions: true,
    elicitation: true,
  };
  return { surface, close: () => client.close() };
}
