/** The identifier of the MCP Events extension under `capabilities.extensions` (a module of its own: importing it loads nothing else). */
export const EVENTS_EXTENSION_ID = 'io.modelcontextprotocol/events';
