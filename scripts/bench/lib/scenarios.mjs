// What the bench compares: the servers (fa-mcp-sdk, the peers users would pick instead, and a floor
// with no MCP code), and the cells each is measured on (a request path and an MCP method).
//
// `kind`: 'fa' (fa-mcp-sdk), 'peer' (what users pick instead; "× fastest peer" compares with the best
// of these), 'floor' (node:http parsing and answering JSON-RPC, the cost of HTTP and JSON themselves).
// `entry`: a bundled server (lib/build.mjs) or `file`, a server run as it is (the floor; the peers,
// installed from scripts/bench/peers by lib/peers.mjs). `eras`: the revisions a server speaks.
export const SERVERS = [
  { id: 'floor', label: 'floor (node:http + JSON, no MCP)', kind: 'floor', file: 'servers/floor.mjs', env: {}, eras: ['2025', '2026'] },
  { id: 'bare', label: 'SDK v2 2.4.0', kind: 'peer', entry: 'bare-sdk', env: {}, eras: ['2025', '2026'] },
  { id: 'sdk-v1', label: 'SDK v1 1.32.2', kind: 'peer', file: 'peers/sdk-v1.mjs', env: {}, eras: ['2025'] },
  { id: 'fastmcp', label: 'fastmcp 4.20.16', kind: 'peer', file: 'peers/fastmcp.mjs', env: {}, eras: ['2025'] },
  { id: 'fa-off', label: 'fa-mcp-sdk, nothing enabled', kind: 'fa', entry: 'fa-mcp', env: { BENCH_PROFILE: 'off' }, eras: ['2025', '2026'] },
  { id: 'fa-on', label: 'fa-mcp-sdk, everything on', kind: 'fa', entry: 'fa-mcp', env: { BENCH_PROFILE: 'on' }, eras: ['2025', '2026'] },
];

/** The three request paths of `tools/call` (what the targets are about). */
export const PATHS = [
  { id: '2025-json', label: '2025-11-25 session, JSON responses', era: '2025', responseMode: 'json', method: 'tools/call' },
  { id: '2025-sse', label: '2025-11-25 session, SSE responses', era: '2025', responseMode: 'sse', method: 'tools/call' },
  { id: '2026', label: '2026-07-28 per-request', era: '2026', responseMode: 'json', method: 'tools/call' },
];

/** The other methods, on a 2025-era session (JSON responses) and on 2026-07-28. */
export const METHOD_CELLS = ['prompts/get', 'resources/read', 'completion/complete'].flatMap((method) => [
  { id: `2025-json ${method}`, label: `${method}, 2025-11-25 session (JSON)`, era: '2025', responseMode: 'json', method },
  { id: `2026 ${method}`, label: `${method}, 2026-07-28`, era: '2026', responseMode: 'json', method },
]);

/** The audit trail's bench variants (lib/audit-cost.mjs), the first the baseline the others are divided by. */
export const AUDIT_VARIANTS = [
  { id: 'none', label: 'everything on, no audit trail' },
  { id: 'jsonl-async', label: '+ audit trail, JSON lines file, async' },
  { id: 'pg-async', label: '+ audit trail, PostgreSQL, async' },
  { id: 'pg-sync', label: '+ audit trail, PostgreSQL, sync' },
];

export const speaks = (server, cell) => server.eras.includes(cell.era);

/** The targets, checked against the figures of the same run. */
export const TARGETS = {
  /** fa-mcp-sdk with everything on, against the fastest peer on every tools/call path. */
  everythingOnVsFastestPeer: 2.0,
  /** fa-mcp-sdk with everything on, as a share of the floor's req/s on every tools/call path. */
  everythingOnOfFloor: 0.65,
  /** fa-mcp-sdk (both profiles) against SDK v2 on 2026-07-28 (issue #11's target, kept). */
  modernVsBare: 3.0,
  /** Live heap of one idle 2025-era session of fa-mcp-sdk, in KB. */
  idleSessionHeapKB: 12,
  /** Live heap growth allowed between the first and the last probe of the soak, in bytes. */
  soakHeapGrowthBytes: 16_000_000,
  /** 2025-session req/s with mcp.sessions.store: postgres, as a share of the memory store's (issue #21). */
  sessionsStoreOfMemory: 0.95,
  /** Everything on plus the audit trail in an async sink, as a share of everything on without it (issue #46). */
  auditAsyncOfNone: 0.9,
};
