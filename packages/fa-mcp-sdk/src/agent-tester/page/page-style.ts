/** The stylesheet of the Agent Tester page (inlined; no external assets). */
export const PAGE_STYLE = `
:root { color-scheme: light; --fg: #1d232a; --muted: #5b6673; --line: #d9dee4; --bg: #f6f7f9; --card: #fff; --accent: #2457c5; --err: #b3261e; --ok: #1e7d3a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 16px; align-items: baseline; padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--card); }
header h1 { font-size: 16px; margin: 0; }
header .meta { color: var(--muted); font-size: 12px; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 280px; gap: 16px; padding: 16px 20px 140px; max-width: 1200px; margin: 0 auto; }
aside { font-size: 12px; color: var(--muted); }
aside h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; margin: 0 0 6px; }
aside ul { margin: 0 0 16px; padding-left: 16px; }
aside li { margin: 2px 0; word-break: break-word; }
aside code { color: var(--fg); }
.turn { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-bottom: 12px; }
.prompt { font-weight: 600; white-space: pre-wrap; margin-bottom: 8px; }
.prompt::before { content: "You: "; color: var(--muted); font-weight: 400; }
.tool-call { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; background: #fbfcfd; }
.tool-call > summary { cursor: pointer; padding: 6px 8px; display: flex; gap: 10px; align-items: baseline; }
.tool-call .name { font-family: ui-monospace, monospace; font-weight: 600; }
.tool-call .timing { color: var(--muted); font-size: 12px; }
.tool-call .status.ok { color: var(--ok); }
.tool-call .status.error { color: var(--err); }
.tool-call .body { padding: 0 8px 8px; }
.label { color: var(--muted); font-size: 11px; text-transform: uppercase; margin-top: 6px; }
pre { margin: 2px 0; padding: 6px 8px; background: var(--bg); border-radius: 4px; overflow: auto; max-height: 320px; font: 12px/1.4 ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
.error { color: var(--err); white-space: pre-wrap; }
.answer { white-space: pre-wrap; margin-top: 10px; padding-top: 8px; border-top: 1px dashed var(--line); }
.answer::before { content: "Model: "; color: var(--muted); }
.facts { color: var(--muted); font-size: 12px; margin-top: 8px; display: flex; gap: 14px; flex-wrap: wrap; }
iframe.app-view { width: 100%; height: 240px; border: 1px solid var(--line); border-radius: 6px; background: #fff; margin-top: 6px; }
.app-log { max-height: 120px; }
footer { position: fixed; left: 0; right: 0; bottom: 0; background: var(--card); border-top: 1px solid var(--line); padding: 10px 20px; }
footer form { display: flex; gap: 8px; max-width: 1200px; margin: 0 auto; align-items: flex-end; }
textarea { flex: 1; min-height: 44px; max-height: 200px; resize: vertical; font: inherit; padding: 8px; border: 1px solid var(--line); border-radius: 6px; }
button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:disabled { opacity: .5; cursor: default; }
.status { color: var(--muted); font-size: 12px; min-width: 90px; }
.pending { color: var(--muted); font-style: italic; }
@media (max-width: 800px) { main { grid-template-columns: 1fr; } }
`;
