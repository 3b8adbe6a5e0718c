/**
 * The walls between the folders of src/ (ARCHITECTURE.md, "A folder is a room") are a lint rule,
 * scripts/lint/rooms.mjs, run by `pnpm run lint` in `npm test` (which is what holds it on the real
 * sources). These cases prove the rule refuses what the architecture forbids (a room importing one
 * it may not, types and dynamic imports included; the SDK outside protocol/; the package importing
 * itself by name) and lets the allowed arrows through, that eslint.config.js applies it to src/,
 * and, through ESLint's Node API, what it reports on one fixture file per rule
 * (fixtures/rooms/: a miniature of the layout, left out of the repository's lint and typecheck).
 */
import { fileURLToPath } from 'node:url';
import { join, relative, sep } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { ROOMS, roomsPlugin } from '../../../../scripts/lint/rooms.mjs';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SRC = join(ROOT, 'packages', 'fa-mcp-sdk', 'src');
const at = (rel: string) => join(SRC, rel);
const FIXTURES = fileURLToPath(new URL('./fixtures/rooms/', import.meta.url));
const FIXTURE_SRC = join(FIXTURES, 'packages', 'fa-mcp-sdk', 'src');

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });

describe('the rooms rule', () => {
  tester.run('fa/rooms', roomsPlugin.rules.rooms, {
    valid: [
      { filename: at('protocol/x.ts'), code: "import { McpServer } from '@modelcontextprotocol/server';" },
      { filename: at('protocol/x.ts'), code: "import type { Core } from '../core/core.js';" },
      { filename: at('transport/http/x.ts'), code: "import type { JSONRPCMessage } from '../../protocol/sdk-server.js';" },
      { filename: at('core/steps/x.ts'), code: "import type { Operation } from '../pipeline.js';" },
      { filename: at('index.ts'), code: "export { startHttpServer } from './transport/http/http-server.js';" },
      { filename: at('cli/x.ts'), code: "import { initMcpServer } from '../index.js';" },
      { filename: at('transport/stdio.ts'), code: "import { serveStdio } from '@modelcontextprotocol/server/stdio';", options: [{ sdkExceptions: { 'transport/stdio.ts': 'why' } }] },
      // another package whose name merely starts like ours
      { filename: at('core/x.ts'), code: "import { x } from 'fa-mcp-sdk-extras';" },
      // outside the library's sources the rule says nothing
      { filename: join(ROOT, 'scripts', 'x.ts'), code: "import { McpServer } from '@modelcontextprotocol/server';" },
      { filename: join(ROOT, 'examples', 'demo', 'src', 'x.ts'), code: "import { initMcpServer } from 'fa-mcp-sdk';" },
    ],
    invalid: [
      { filename: at('core/x.ts'), code: "import { startStdio } from '../transport/stdio.js';", errors: [{ messageId: 'wall' }] },
      { filename: at('core/steps/x.ts'), code: "import type { AuthRuntime } from '../../auth/auth-runtime.js';", errors: [{ messageId: 'wall' }] },
      { filename: at('core/x.ts'), code: "export { buildServer } from '../protocol/server-factory.js';", errors: [{ messageId: 'wall' }] },
      { filename: at('core/x.ts'), code: "const m = await import('../ops/metrics.js');", errors: [{ messageId: 'wall' }] },
      { filename: at('core/x.ts'), code: "type T = import('../state/notification-bus.js').INotificationBus;", errors: [{ messageId: 'wall' }] },
      // the reverse of an allowed arrow
      { filename: at('protocol/x.ts'), code: "import { startHttpServer } from '../transport/http/http-server.js';", errors: [{ messageId: 'wall' }] },
      { filename: at('transport/http/x.ts'), code: "import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';", errors: [{ messageId: 'sdk' }] },
      { filename: at('testing/x.ts'), code: "import { Client } from '@modelcontextprotocol/client';", errors: [{ messageId: 'sdk' }] },
      { filename: at('newroom/x.ts'), code: "import { x } from '../core/x.js';", errors: [{ messageId: 'unknownRoom' }] },
      // the package by its own name, in any room and in the files directly in src/
      { filename: at('core/x.ts'), code: "import { formatToolResult } from 'fa-mcp-sdk';", errors: [{ messageId: 'self' }] },
      { filename: at('init-mcp-server.ts'), code: "import type { McpServerData } from 'fa-mcp-sdk';", errors: [{ messageId: 'self' }] },
      { filename: at('cli/x.ts'), code: "const t = await import('fa-mcp-sdk/testing');", errors: [{ messageId: 'self' }] },
      { filename: at('testing/x.ts'), code: "export { Database } from 'fa-mcp-sdk/db';", errors: [{ messageId: 'self' }] },
      { filename: at('protocol/x.ts'), code: "type T = import('fa-mcp-sdk').Core;", errors: [{ messageId: 'self' }] },
    ],
  });

  it('lists an acyclic set of arrows, with core importing no other room', () => {
    const rooms = ROOMS as Record<string, string[]>;
    expect(rooms.core).toEqual([]);
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (room: string, path: string[]): void => {
      if (done.has(room) || room === '(root)') return;
      if (visiting.has(room)) throw new Error(`cycle: ${[...path, room].join(' -> ')}`);
      visiting.add(room);
      for (const next of rooms[room] ?? []) visit(next, [...path, room]);
      visiting.delete(room);
      done.add(room);
    };
    for (const room of Object.keys(rooms)) visit(room, []);
  });

  it('is on for every file of src/ in eslint.config.js, and off for the fixtures', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of [at('index.ts'), at('core/core.ts'), at('protocol/server-factory.ts')]) {
      const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> };
      expect(config.rules?.['fa/rooms'], file).toEqual([2]);
    }
    expect(await eslint.isPathIgnored(join(FIXTURE_SRC, 'core', 'forbidden-arrow.ts'))).toBe(true);
  });

  it('reports on each fixture file what its rule forbids, and nothing on the allowed one', async () => {
    const eslint = new ESLint({
      cwd: FIXTURES,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
          plugins: { fa: roomsPlugin },
          rules: { 'fa/rooms': 'error' },
        },
      ],
    });
    const results = await eslint.lintFiles(['**/*.ts']);
    const found = Object.fromEntries(
      results.map((r) => [relative(FIXTURE_SRC, r.filePath).split(sep).join('/'), r.messages.map((m) => m.messageId ?? `${m.ruleId}: ${m.message}`)]),
    );
    expect(found).toEqual({
      'core/forbidden-arrow.ts': ['wall'],
      'core/type-only-arrow.ts': ['wall'],
      'transport/sdk-outside-protocol.ts': ['sdk'],
      'cli/self-import.ts': ['self', 'self'],
      'protocol/allowed.ts': [],
    });
  });
});
