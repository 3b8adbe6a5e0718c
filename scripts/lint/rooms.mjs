/**
 * The walls of packages/fa-mcp-sdk/src (ARCHITECTURE.md: "A folder is a room"), held by lint so a
 * wrong arrow fails `npm test` instead of waiting for a reviewer:
 *
 * - a room imports only the rooms listed for it below, types included (the list is acyclic: no
 *   two rooms import each other, and `core` imports no other room);
 * - the MCP SDK (`@modelcontextprotocol/*`) is imported only in `protocol/`, so an SDK change
 *   touches one folder; the client rooms (testing/, agent-tester/, cli/) reach it through
 *   protocol/sdk-client*.ts;
 * - no file imports the package by its own name (`fa-mcp-sdk`, `fa-mcp-sdk/testing` …): that
 *   resolves to the built dist/ (or, in a consumer's tree, to another copy of the package), not
 *   to the module next door, and walks around every wall above.
 *
 * Files directly in src/ (the entry points and the wiring of initMcpServer) may import any room.
 * A new arrow is a decision: add it here, where a reviewer sees it.
 */
import { dirname, relative, resolve, sep } from 'node:path';

/** room → the rooms it may import. */
export const ROOMS = {
  core: [],
  config: ['core'],
  auth: ['config', 'core'],
  apps: ['core'],
  contract: ['core'],
  skills: ['core'],
  db: ['config', 'core'],
  state: ['config', 'core', 'db'],
  tasks: ['config', 'core', 'db', 'state'],
  webhooks: ['config', 'core', 'db', 'state'],
  // the MCP Events extension: event types, occurrences and cursors, push streams, webhook subscriptions (their deliveries on the webhooks outbox)
  events: ['config', 'core', 'db', 'state', 'webhooks'],
  // the audit trail: records, sinks (file, PostgreSQL, OpenTelemetry logs), chain verification
  audit: ['config', 'core', 'db', 'state'],
  protocol: ['auth', 'config', 'core', 'state', 'tasks'],
  transport: ['auth', 'config', 'core', 'protocol', 'state', 'tasks'],
  rest: ['config', 'core', 'protocol', 'transport'],
  ops: ['audit', 'config', 'core', 'rest', 'transport'],
  'agent-tester': ['apps', 'auth', 'config', 'core', 'ops', 'protocol'],
  // the entry point fa-mcp-sdk/stores: re-exports the built-in stores, imports nothing else
  stores: ['events', 'state', 'tasks', 'webhooks'],
  testing: ['(root)', 'contract', 'core', 'protocol'],
  cli: ['(root)', 'agent-tester', 'audit', 'auth', 'config', 'contract', 'core', 'db', 'protocol', 'testing', 'webhooks'],
};

const SDK = /^@modelcontextprotocol\//;
const SDK_ROOMS = new Set(['protocol']);
const SELF = /^fa-mcp-sdk(\/|$)/;
const SRC = `${sep}packages${sep}fa-mcp-sdk${sep}src${sep}`;

/** The room of a path inside src/ ('(root)' for a file directly in it), or undefined outside src/. */
function roomOf(srcRoot, file) {
  const rel = relative(srcRoot, file);
  if (rel.startsWith('..') || rel === '') return undefined;
  const parts = rel.split(sep);
  return parts.length === 1 ? '(root)' : parts[0];
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'the walls between the folders of packages/fa-mcp-sdk/src (ARCHITECTURE.md)' },
    schema: [
      {
        type: 'object',
        properties: {
          rooms: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          /** Files (relative to src/) that may still import the SDK outside protocol/, each with its reason. */
          sdkExceptions: { type: 'object', additionalProperties: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      wall: "{{from}}/ may not import {{to}}/ ({{source}}): the walls are in scripts/lint/rooms.mjs (ARCHITECTURE.md, 'A folder is a room')",
      unknownRoom: '{{room}}/ is not a room of scripts/lint/rooms.mjs: add it with the rooms it may import',
      sdk: '{{source}} is imported only in protocol/ (ARCHITECTURE.md: every SDK import inside src/protocol/); use or add a protocol/ module',
      self: "{{source}}: the package does not import itself by name (ARCHITECTURE.md); import the module by its relative path",
    },
  },
  create(context) {
    const file = context.filename;
    const at = file.lastIndexOf(SRC);
    if (at < 0) return {};
    const srcRoot = file.slice(0, at + SRC.length - 1);
    const from = roomOf(srcRoot, file);
    if (!from) return {};
    const options = context.options[0] ?? {};
    const rooms = options.rooms ?? ROOMS;
    const exceptions = options.sdkExceptions ?? {};
    const allowed = from === '(root)' ? undefined : rooms[from];

    let reportedUnknown = false;
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (SELF.test(source)) {
        context.report({ node, messageId: 'self', data: { source } });
        return;
      }
      if (SDK.test(source)) {
        if (!SDK_ROOMS.has(from) && !Object.hasOwn(exceptions, relative(srcRoot, file).split(sep).join('/'))) {
          context.report({ node, messageId: 'sdk', data: { source } });
        }
        return;
      }
      if (!source.startsWith('.') || from === '(root)') return;
      const to = roomOf(srcRoot, resolve(dirname(file), source));
      if (!to || to === from) return;
      if (!allowed) {
        if (!reportedUnknown) context.report({ node, messageId: 'unknownRoom', data: { room: from } });
        reportedUnknown = true;
        return;
      }
      if (!allowed.includes(to)) context.report({ node, messageId: 'wall', data: { from, to, source } });
    };
    const literal = (n) => (n && n.type === 'Literal' ? n.value : undefined);
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      // `source` since typescript-eslint 8.x; `argument` (deprecated, warns when read) before
      TSImportType: (node) => check(node, literal(node.source ?? node.argument?.literal ?? node.argument)),
    };
  },
};

export const roomsPlugin = { rules: { rooms: rule } };
