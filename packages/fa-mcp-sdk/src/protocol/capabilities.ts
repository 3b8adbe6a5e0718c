/**
 * The server's capabilities, the same object on 2025-era `initialize` and
 * 2026-07-28 `server/discover`: a list is declared when the server serves it,
 * `listChanged` only where a list can change, `logging` only where handlers log
 * to the client, `resources.subscribe` only where resource updates are sent.
 * Derived at start from the server and `mcp.capabilities` (auto, or true/false
 * to override), then read per SDK server instance.
 */
import type { McpServer, ServerCapabilities } from '@modelcontextprotocol/server';
import type { CapabilitiesConfig, CapabilitySetting } from '../config/sections/capabilities.js';
import { hasCompletions } from '../core/completions.js';
import type { Core } from '../core/core.js';
import type { DeclaredCapabilities, ICapabilitiesOptions, ListKind } from '../core/declared-capabilities.js';
import type { ProtocolEra } from '../core/request-context.js';
import { TASKS_EXTENSION_ID } from '../core/steps/task-support.js';
import { extensionCapabilities } from '../core/extensions.js';

export interface DeriveInput {
  config: CapabilitiesConfig;
  /** `McpServerData.capabilities`: what the consumer says its server does. */
  declared?: ICapabilitiesOptions;
  /** Tools given as a function: the list can differ from one request to the next. */
  dynamicTools: boolean;
  /** Resources given as a function: the same for the resource list. */
  dynamicResources?: boolean;
}

const LISTS: readonly ListKind[] = ['tools', 'prompts', 'resources'];

const decide = (setting: CapabilitySetting, derived: boolean): boolean => (setting === 'auto' ? derived : setting);

export function deriveCapabilities({ config, declared = {}, dynamicTools, dynamicResources = false }: DeriveInput): DeclaredCapabilities {
  const named = declared.listChanged;
  const changes = (kind: ListKind) => named === true || (Array.isArray(named) && named.includes(kind)) || (kind === 'tools' && dynamicTools) || (kind === 'resources' && dynamicResources);
  const listChanged = Object.fromEntries(LISTS.map((kind) => [kind, decide(config.listChanged, changes(kind))])) as Record<ListKind, boolean>;
  return {
    logging: decide(config.logging, declared.logging === true),
    listChanged,
    subscribe: decide(config.subscribe, declared.subscribe === true),
  };
}

/** `capabilities.extensions` of the server, or nothing when it declares none. */
export function extensionsCapability(core: Core, protocolExtensions: readonly string[] = []): Pick<ServerCapabilities, 'extensions'> {
  // Protocol-level extensions served by the framework itself (the tasks extension), with no settings.
  const extensions = { ...(extensionCapabilities(core.extensions) ?? {}), ...Object.fromEntries(protocolExtensions.map((id) => [id, {}])) };
  // Settings are JSON data by contract (ServerExtension.settings); the SDK types them as JSON values.
  return Object.keys(extensions).length > 0 ? { extensions: extensions as ServerCapabilities['extensions'] } : {};
}

/** The `capabilities` member of the handshake answer of one SDK server instance. */
export function serverCapabilities(core: Core, era: ProtocolEra, tasks: boolean): ServerCapabilities {
  const { registry, declared } = core;
  const hasResources = registry.hasResources;
  const list = (kind: ListKind) => (declared.listChanged[kind] ? { listChanged: true } : {});
  return {
    ...(declared.logging ? { logging: {} } : {}),
    ...(registry.hasTools ? { tools: list('tools') } : {}),
    ...(registry.prompts.size > 0 ? { prompts: list('prompts') } : {}),
    ...(hasResources ? { resources: { ...(declared.subscribe ? { subscribe: true } : {}), ...list('resources') } } : {}),
    ...(hasCompletions(registry) ? { completions: {} } : {}),
    ...extensionsCapability(core, era === '2026' ? [...(tasks ? [TASKS_EXTENSION_ID] : []), ...(core.events ? [core.events.id] : [])] : []),
    // The Events extension (2026-07-28): declared under extensions, and as `events` too, where its clients look
    // (the Vercel AI SDK's MCP client, ChatGPT) — the capability shape of its design; no list changes are sent.
    ...(era === '2026' && core.events ? ({ events: {} } as ServerCapabilities) : {}),
    ...(era === '2025' && tasks ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
  };
}

/**
 * The SDK turns `listChanged` on for every list an McpServer is constructed with
 * or registers a tool, prompt or resource for; this takes it back where the
 * server does not declare it (call after registering, before connecting). The
 * capability stays, without the flag; nothing changes where the flag is not on.
 */
export function settleListChanged(server: McpServer, core: Core): void {
  const caps = server.server.getCapabilities();
  const undeclared = (['tools', 'prompts', 'resources'] as const).filter((kind) => caps[kind]?.listChanged && !core.declared.listChanged[kind]);
  if (undeclared.length === 0) return;
  // mergeCapabilities spreads each list's object: an undefined flag replaces the SDK's `true`.
  server.server.registerCapabilities(Object.fromEntries(undeclared.map((kind) => [kind, { listChanged: undefined }])) as ServerCapabilities);
}
