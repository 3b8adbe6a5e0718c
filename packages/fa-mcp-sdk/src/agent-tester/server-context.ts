/**
 * What the model is told about the server: its tools (as function tools), and
 * a system message made of the configured (or built-in) text, the server's
 * instructions, and the names and descriptions of its prompts and resources.
 */
import type { Client } from '../protocol/sdk-client.js';
import type { ChatMessage } from './chat-types.js';
import { toFunctionTools, type FunctionToolSet, type McpToolLike } from './function-tools.js';

/** Longest system message sent; the lists are cut beyond it. */
export const MAX_SYSTEM_CHARS = 12_000;

export interface ServerContext {
  name?: string;
  version?: string;
  protocolVersion?: string;
  /** Every tool of tools/list, by name (app-only ones included, for views). */
  tools: Map<string, McpToolLike>;
  functions: FunctionToolSet;
  prompts: Array<{ name: string; description?: string }>;
  resources: Array<{ uri: string; name?: string; description?: string }>;
  system: ChatMessage;
}

const DEFAULT_SYSTEM = (name: string) =>
  `You are a test agent for the MCP server "${name}". Use its tools when they help to answer the user, ` +
  'read their results carefully, and answer in plain text. If a tool fails, say so and why.';

async function optionalList<T>(enabled: boolean, list: () => Promise<T[]>): Promise<T[]> {
  if (!enabled) return [];
  try {
    return await list();
  } catch {
    return []; // context only: a server that cannot list prompts or resources still gets tested
  }
}

function line(name: string, description: string | undefined): string {
  return description ? `- ${name}: ${description.replace(/\s+/g, ' ').slice(0, 300)}` : `- ${name}`;
}

export function systemText(input: { systemPrompt: string; name: string; instructions?: string; prompts: ServerContext['prompts']; resources: ServerContext['resources'] }): string {
  const parts = [input.systemPrompt.trim() || DEFAULT_SYSTEM(input.name)];
  if (input.instructions?.trim()) parts.push(`Server instructions:\n${input.instructions.trim()}`);
  if (input.prompts.length) parts.push(`Prompts the server offers:\n${input.prompts.map((p) => line(p.name, p.description)).join('\n')}`);
  if (input.resources.length) parts.push(`Resources the server offers:\n${input.resources.map((r) => line(r.uri, r.description ?? r.name)).join('\n')}`);
  const text = parts.join('\n\n');
  return text.length > MAX_SYSTEM_CHARS ? `${text.slice(0, MAX_SYSTEM_CHARS)}\n[…]` : text;
}

export async function readServerContext(client: Client, systemPrompt: string, signal?: AbortSignal): Promise<ServerContext> {
  const options = signal ? { signal } : undefined;
  const caps = client.getServerCapabilities() ?? {};
  const info = client.getServerVersion();
  const { tools } = caps.tools ? await client.listTools(undefined, options) : { tools: [] };
  const prompts = await optionalList(!!caps.prompts, async () => (await client.listPrompts(undefined, options)).prompts);
  const resources = await optionalList(!!caps.resources, async () => (await client.listResources(undefined, options)).resources);
  const name = info?.name ?? 'this server';
  const mcpTools = tools as unknown as McpToolLike[];
  const promptList = prompts.map((p) => ({ name: p.name, ...(p.description ? { description: p.description } : {}) }));
  const resourceList = resources.map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}), ...(r.description ? { description: r.description } : {}) }));
  const instructions = client.getInstructions();
  const protocolVersion = client.getNegotiatedProtocolVersion();
  return {
    ...(info?.name ? { name: info.name } : {}),
    ...(info?.version ? { version: info.version } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
    tools: new Map(mcpTools.map((t) => [t.name, t])),
    functions: toFunctionTools(mcpTools),
    prompts: promptList,
    resources: resourceList,
    system: {
      role: 'system',
      content: systemText({ systemPrompt, name, ...(instructions ? { instructions } : {}), prompts: promptList, resources: resourceList }),
    },
  };
}
