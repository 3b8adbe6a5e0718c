/**
 * The host side of the browser test: a page that embeds a view the way an MCP
 * Apps host does (a sandboxed iframe under a Content-Security-Policy without
 * eval) and talks to it through the AppBridge of @modelcontextprotocol/ext-apps.
 * Tool calls the view makes go to `window.hostCallTool`, which the test wires to
 * the official MCP client connected to the server.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type CallToolParams = { name: string; arguments?: Record<string, unknown> };
type ToolResult = { content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

declare global {
  interface Window {
    hostCallTool: (params: CallToolParams) => Promise<ToolResult>;
    mountView: (id: string, html: string, input: Record<string, unknown>, result: ToolResult) => Promise<void>;
  }
}

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/** Puts the host's CSP first in the view's <head>, as a sandbox proxy would. */
function withCsp(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${CSP}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}${meta}`) : `${meta}${html}`;
}

window.mountView = async (id, html, input, result) => {
  const iframe = document.createElement('iframe');
  iframe.id = id;
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width: 640px; height: 320px; border: 1px solid #ccc';
  document.body.append(iframe);
  const view = iframe.contentWindow as Window;

  const bridge = new AppBridge(null, { name: 'fa-mcp-test-host', version: '1.0.0' }, { serverTools: {}, logging: {} });
  bridge.oncalltool = async (params) => (await window.hostCallTool(params as CallToolParams)) as never;
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = withCsp(html);
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result as never);
};
