/**
 * App calls: tool calls of tools that render an MCP Apps view
 * (`_meta.ui.resourceUri`). Each carries the view document, read once per
 * conversation from its `ui://` resource, and the policy the page applies to it.
 */
import type { Client } from '../protocol/sdk-client.js';
import { appResourceUriOf } from '../apps/tool-view.js';
import type { McpToolLike } from './function-tools.js';
import type { AgentAppCall, AgentAppView, AgentToolCall } from './trace-types.js';
import { viewCsp } from './view-csp.js';

export type ViewReader = (uri: string) => Promise<AgentAppView>;

/** Reads views through `client`, each URI once. */
export function createViewReader(client: Client, signal?: AbortSignal): ViewReader {
  const cache = new Map<string, Promise<AgentAppView>>();
  return (uri) => {
    let view = cache.get(uri);
    if (!view) {
      view = readView(client, uri, signal);
      cache.set(uri, view);
    }
    return view;
  };
}

export async function readView(client: Client, uri: string, signal?: AbortSignal): Promise<AgentAppView> {
  const { contents } = await client.readResource({ uri }, signal ? { signal } : undefined);
  const content = contents.find((c) => c.uri === uri && typeof (c as { text?: unknown }).text === 'string') ?? contents.find((c) => typeof (c as { text?: unknown }).text === 'string');
  if (!content) throw new Error(`the resource ${uri} has no text content`);
  const meta = (content as { _meta?: Record<string, unknown> })._meta;
  return {
    uri,
    ...(content.mimeType ? { mimeType: content.mimeType } : {}),
    html: (content as { text: string }).text,
    ...(meta ? { meta } : {}),
    csp: viewCsp(meta),
  };
}

/** The app call of a recorded tool call, or undefined when the tool renders no view. */
export async function appCallOf(call: AgentToolCall, tool: McpToolLike | undefined, read: ViewReader): Promise<AgentAppCall | undefined> {
  const resourceUri = tool ? appResourceUriOf(tool) : undefined;
  if (!resourceUri || call.error !== undefined) return undefined;
  const app: AgentAppCall = {
    toolCallId: call.id,
    toolName: call.name,
    resourceUri,
    arguments: call.arguments,
    isError: call.isError,
    ...(call.result ? { result: call.result } : {}),
  };
  try {
    app.view = await read(resourceUri);
  } catch (err) {
    app.viewError = (err as Error).message ?? String(err);
  }
  return app;
}
