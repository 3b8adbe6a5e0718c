/**
 * fa-mcp-sdk public API. Every name exported here is listed in
 * FA-MCP-SDK-DOC/11-public-contract.md; renaming one is a breaking change.
 */
export { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle } from './init-mcp-server.js';
export * from './core/errors.js';
export { createJsonRpcErrorResponse, toWireError, type WireError } from './core/error-mapping.js';
export * from './core/results.js';
export * from './core/types.js';
export type { RequestContext, AuthInfo, ProtocolEra, TransportKind, TraceContext } from './core/request-context.js';
export type { Operation, PipelineStep, Next } from './core/pipeline.js';
export type { ToolHandler } from './core/tool-executor.js';
export { TOOL_NAME_PATTERN } from './core/tool-name.js';
export { TRUNCATION_MARKER } from './core/steps/cap-result.js';
export { loadConfig, ConfigError, maskConfig, renderConfigReference, type LoadConfigOptions, type LoadedConfig } from './config/index.js';
export { configSchema, type AppConfig, type SchemaNode } from './config/schema.js';
export { InMemoryEventStore, type IEventStore } from './state/event-store-memory.js';
export type { ReadinessCheck } from './ops/health.js';
export { maskSecrets } from './ops/mask-secrets.js';
export type { Logger } from './ops/logger.js';
export { assembleInstructions, InstructionsBudgetError, type IInstructionsParts, type IInstructionsIndexEntry } from './core/instructions.js';
export type { IIconFile } from './core/icons.js';
export { deprecationMarker } from './core/deprecation.js';
