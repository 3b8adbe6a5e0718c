// What the bench compares: three servers, each on three request paths.
export const SERVERS = [
  { id: 'bare', label: 'bare SDK v2', entry: 'bare-sdk', env: {} },
  { id: 'fa-off', label: 'fa-mcp-sdk, nothing enabled', entry: 'fa-mcp', env: { BENCH_PROFILE: 'off' } },
  { id: 'fa-on', label: 'fa-mcp-sdk, everything on', entry: 'fa-mcp', env: { BENCH_PROFILE: 'on' } },
];

export const PATHS = [
  { id: '2025-json', label: '2025-11-25 session, JSON responses', era: '2025', responseMode: 'json' },
  { id: '2025-sse', label: '2025-11-25 session, SSE responses', era: '2025', responseMode: 'sse' },
  { id: '2026', label: '2026-07-28 per-request', era: '2026', responseMode: 'json' },
];

/** The targets of the issue, checked against the figures. */
export const TARGETS = {
  everythingOnVsBare: 1.0,
  modernVsBare: 3.0,
  /** Live heap growth allowed between the first and the last probe of the soak, in bytes. */
  soakHeapGrowthBytes: 16_000_000,
};
