/**
 * Built-in resources and prompts every fa-mcp-sdk server offers:
 * `project://version`, `use://auth`, and the standard prompts `agent_brief` and
 * `agent_prompt` (also as `<name>://agent/brief` and `<name>://agent/prompt`)
 * when the consumer supplies their text.
 */
import type { IPromptData, IResourceData } from './types.js';

export interface BuiltinsInput {
  serverName: string;
  serverVersion: string;
  sdkVersion: string;
  /** What authentication the server expects, without secrets. */
  authDescription: () => Record<string, unknown>;
  agentBrief?: string;
  agentPrompt?: string;
}

/** `my-server` -> `my-server`; characters not allowed in a URI scheme are replaced. */
export function uriSchemeOf(name: string): string {
  const s = name.toLowerCase().replace(/^@[^/]+\//, '').replace(/[^a-z0-9+.-]/g, '-');
  return /^[a-z]/.test(s) ? s : `mcp-${s}`;
}

export function builtinResources(input: BuiltinsInput, taken: ReadonlySet<string>): IResourceData[] {
  const scheme = uriSchemeOf(input.serverName);
  const list: IResourceData[] = [
    {
      uri: 'project://version',
      name: 'project_version',
      title: 'Server version',
      description: 'Name and version of this MCP server, of fa-mcp-sdk and of Node.js.',
      mimeType: 'application/json',
      content: () =>
        JSON.stringify({ name: input.serverName, version: input.serverVersion, sdk: { name: 'fa-mcp-sdk', version: input.sdkVersion }, node: process.version }),
    },
    {
      uri: 'use://auth',
      name: 'use_auth',
      title: 'How to authenticate',
      description: 'Which authentication this server expects and how to present it. Contains no secrets.',
      mimeType: 'application/json',
      content: () => JSON.stringify(input.authDescription()),
    },
  ];
  if (input.agentBrief) {
    list.push({ uri: `${scheme}://agent/brief`, name: 'agent_brief', title: 'Agent brief', description: 'A short brief of what this server is for.', mimeType: 'text/markdown', content: input.agentBrief });
  }
  if (input.agentPrompt) {
    list.push({ uri: `${scheme}://agent/prompt`, name: 'agent_prompt', title: 'Agent prompt', description: 'The system prompt for an agent using this server.', mimeType: 'text/markdown', content: input.agentPrompt });
  }
  return list.filter((r) => !taken.has(r.uri));
}

export function builtinPrompts(input: BuiltinsInput, taken: ReadonlySet<string>): IPromptData[] {
  const list: IPromptData[] = [];
  if (input.agentBrief) {
    list.push({ name: 'agent_brief', title: 'Agent brief', description: 'A short brief of what this server is for and when to use it.', content: input.agentBrief });
  }
  if (input.agentPrompt) {
    list.push({ name: 'agent_prompt', title: 'Agent prompt', description: 'The system prompt for an agent that works with this server.', content: input.agentPrompt });
  }
  return list.filter((p) => !taken.has(p.name));
}
