/** The names of the `DEBUG=mcp:*` channels (ops/debug-channels.ts), apart from the `debug` package that writes them. */
export const DEBUG_CHANNELS = ['handshake', 'rpc', 'tool', 'resource', 'prompt', 'notification', 'auth'] as const;
export type DebugChannel = (typeof DEBUG_CHANNELS)[number];
