/**
 * The walls between the folders of src/ (ARCHITECTURE.md, "A folder is a room") are a lint rule,
 * scripts/lint/rooms.mjs, run by `pnpm run lint` in `npm test`. These cases prove the rule refuses
 * what the architecture forbids (a room importing one it may not, types and dynamic imports
 * included; the SDK outside protocol/) and lets the allowed arrows through; the last case runs it
 * over the real sources.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { ROOMS, roomsPlugin } from '../../../../scripts/lint/rooms.mjs';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SRC = join(ROOT, 'packages', 'fa-mcp-sdk', 'src');
const at = (rel: string) => join(SRC, rel);

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
      // outside the library's sources the rule says nothing
      { filename: join(ROOT, 'scripts', 'x.ts'), code: "import { McpServer } from '@modelcontextprotocol/server';" },
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

  it('holds on the library sources as they are', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const results = await eslint.lintFiles([join(SRC, '**/*.ts')]);
    const broken = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'fa/rooms').map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(broken).toEqual([]);
    expect(results.length).toBeGreaterThan(100);
  }, 120_000);
});
