/** A plain JSON object: what arguments, results and protocol params are, independent of the MCP SDK. */
export type JsonObject = { [key: string]: unknown };
