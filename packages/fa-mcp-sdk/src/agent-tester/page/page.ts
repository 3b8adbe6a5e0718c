/**
 * The Agent Tester page: one self-contained HTML document (styles and scripts
 * inline, nothing loaded from elsewhere) with the chat, the server's tools,
 * prompts and resources, and the view frames. It holds no configuration
 * beyond its own path: the model key and endpoint stay on the server.
 */
import { BRIDGE_SCRIPT } from './page-bridge-script.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

/**
 * The page's policy. Views are srcdoc frames, which inherit it, so it allows
 * inline scripts and styles (the page itself builds every node with
 * textContent); each view also gets its own, narrower policy (view-csp.ts).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface PageOptions {
  /** Where the page is mounted (`agentTester.path`); the API is under `<path>/api`. */
  basePath: string;
  /** Shown in the title. */
  serverName: string;
}

export function renderPage(options: PageOptions): string {
  const title = `${escapeHtml(options.serverName)} — Agent Tester`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>
<body data-base="${escapeHtml(options.basePath)}">
<header>
  <h1>${title}</h1>
  <span class="meta">model: <span data-testid="model-name">…</span></span>
  <span class="meta" data-testid="status">loading…</span>
</header>
<main>
  <section data-testid="turns" aria-live="polite"></section>
  <aside>
    <h2>Tools</h2><ul data-testid="tools-list"></ul>
    <h2>Prompts</h2><ul data-testid="prompts-list"></ul>
    <h2>Resources</h2><ul data-testid="resources-list"></ul>
  </aside>
</main>
<footer>
  <form data-testid="chat-form" autocomplete="off">
    <textarea data-testid="prompt-input" placeholder="Ask something that needs this server's tools (Enter sends, Shift+Enter for a new line)" aria-label="Message"></textarea>
    <button type="submit" data-testid="send-button">Send</button>
    <button type="button" class="secondary" data-testid="reset-button" title="Forget this conversation">New chat</button>
  </form>
</footer>
<script>${BRIDGE_SCRIPT}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
