/**
 * Errors cross the dual build (issue 42, item 9). The package ships an ESM build (dist/index.js)
 * and a CommonJS one (dist/index.cjs); a process may load both, e.g. a server started from the
 * ESM build whose tools `require('fa-mcp-sdk')`. Here a server runs from one build, on every
 * transport and era, and its handlers throw errors constructed by the other build: each reaches
 * the client as what its class means (ConflictError -32007 with its data, ToolExecutionError an
 * `isError` result, …), not as -32603. Both directions; prompts, resources, REST routes and tasks
 * too; and `instanceof` across the builds, for consumers' own checks.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';

type Sdk = typeof import('../../src/index.js');
type SdkTesting = typeof import('../../src/testing/index.js');
type TestServer = import('../../src/testing/index.js').TestServer;
type TestTarget = import('../../src/testing/index.js').TestTarget;
type McpServerData = import('../../src/index.js').McpServerData;

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const built = sdkBuildIsCurrent();

interface Build {
  name: 'ESM' | 'CJS';
  sdk: Sdk;
  testing: SdkTesting;
}

async function loadBuilds(): Promise<Record<'esm' | 'cjs', Build>> {
  const require = createRequire(import.meta.url);
  const esm: Build = {
    name: 'ESM',
    sdk: (await import(pathToFileURL(join(DIST, 'index.js')).href)) as Sdk,
    testing: (await import(pathToFileURL(join(DIST, 'testing', 'index.js')).href)) as SdkTesting,
  };
  const cjs: Build = { name: 'CJS', sdk: require(join(DIST, 'index.cjs')) as Sdk, testing: require(join(DIST, 'testing', 'index.cjs')) as SdkTesting };
  return { esm, cjs };
}

const failing = (handler: () => never) => ({ name: '', description: 'Fails on purpose.', inputSchema: { type: 'object' as const, properties: {} }, handler });

/** A server whose handlers throw errors made by `other` (the build the server does not run from). */
function serverData(other: Sdk): McpServerData {
  const tool = (name: string, make: () => Error) => ({ ...failing(() => { throw make(); }), name });
  return {
    serverInfo: { name: 'dual-build-errors', version: '1.0.0' },
    tools: [
      tool('conflict', () => new other.ConflictError('Version 3 expected, 4 found', { expected: 3, actual: 4 })),
      tool('tool_failure', () => new other.ToolExecutionError('No city called Atlantis', { city: 'Atlantis' })),
      tool('invalid', () => new other.ValidationError('The date is in the past', { field: 'date', reason: 'past' })),
      tool('not_found', () => new other.ResourceNotFoundError('test://gone')),
      tool('rate_limited', () => new other.RateLimitedError('Slow down', 7, { limit: 10 })),
      tool('forbidden', () => new other.AuthError('insufficient_scope', 'The call needs reports:read', { requiredScopes: ['reports:read'] })),
      tool('config', () => new other.ConfigError([{ path: 'db.url', message: 'cannot read /srv/secret/db.yaml' }])),
      tool('plain', () => new Error('/srv/secret/stack detail')),
      { ...failing(() => { throw new other.ConflictError('Task conflict', { task: true }); }), name: 'conflict_task', execution: { taskSupport: 'optional' as const } },
    ],
    prompts: [{ name: 'conflict_prompt', description: 'Fails.', content: () => { throw new other.ConflictError('Prompt conflict', { prompt: 1 }); } }],
    resources: [{ uri: 'test://conflict', name: 'conflict', mimeType: 'text/plain', content: () => { throw new other.ConflictError('Resource conflict', { resource: 1 }); } }],
    rest: {
      routes: [{ method: 'get', path: '/conflict', handler: () => { throw new other.ConflictError('REST conflict', { rest: 1 }); } }],
    },
  };
}

interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/** The JSON-RPC error a call was answered with; fails when it was answered with a result. */
async function rpcError(call: Promise<unknown>): Promise<RpcError> {
  let result: unknown;
  try {
    result = await call;
  } catch (err) {
    return err as RpcError;
  }
  throw new Error(`expected a JSON-RPC error, got a result: ${JSON.stringify(result).slice(0, 300)}`);
}

const builds = built ? await loadBuilds() : undefined;

describe.skipIf(!builds)('errors from one build, thrown in a server of the other', { timeout: 120_000 }, () => {
  describe.each([
    ['ESM', 'CJS'],
    ['CJS', 'ESM'],
  ] as const)('server from the %s build, errors from the %s build', (serverBuild, errorBuild) => {
    const server = (): Build => (builds as Record<'esm' | 'cjs', Build>)[serverBuild === 'ESM' ? 'esm' : 'cjs'];
    const errors = (): Build => (builds as Record<'esm' | 'cjs', Build>)[errorBuild === 'ESM' ? 'esm' : 'cjs'];

    it('the builds are two copies: the classes differ, so only the brand can tell', () => {
      expect(server().sdk.ConflictError).not.toBe(errors().sdk.ConflictError);
      expect(Object.getPrototypeOf(new (errors().sdk.ConflictError)('x'))).not.toBe(server().sdk.ConflictError.prototype);
    });

    it('instanceof works across the builds, for the family and for each kind', () => {
      const { sdk: mine } = server();
      const { sdk: theirs, testing: theirTesting } = errors();
      const conflict = new theirs.ConflictError('x');
      expect(conflict instanceof mine.ConflictError).toBe(true);
      expect(conflict instanceof mine.BaseMcpError).toBe(true);
      expect(conflict instanceof mine.ValidationError).toBe(false);
      expect(conflict instanceof mine.ToolExecutionError).toBe(false);
      const failure = new theirs.ToolExecutionError('y');
      expect(failure instanceof mine.ToolExecutionError).toBe(true);
      expect(failure instanceof mine.BaseMcpError).toBe(true);
      expect(new theirs.AuthError('missing', 'z') instanceof mine.AuthError).toBe(true);
      expect(new theirs.TaskLimitError(3) instanceof mine.RateLimitedError).toBe(true);
      expect(new theirs.ConfigError([]) instanceof mine.ConfigError).toBe(true);
      expect(new theirTesting.WireError(-32007, 'w') instanceof server().testing.WireError).toBe(true);
      expect(new Error('plain') instanceof mine.BaseMcpError).toBe(false);
      // A consumer's own subclass of the other build's class: recognised as its base kinds.
      class StaleVersion extends theirs.ConflictError {}
      const stale = new StaleVersion('old');
      expect(stale instanceof mine.ConflictError).toBe(true);
      expect(stale instanceof StaleVersion).toBe(true);
      expect(conflict instanceof StaleVersion).toBe(false);
      expect(stale.name).toBe('StaleVersion');
      expect(mine.toWireError(stale)).toEqual({ code: -32007, message: 'old', httpStatus: 409 });
    });

    for (const target of builds?.esm.testing.ALL_TARGETS ?? []) {
      describe(target.label, () => {
        let running: TestServer;
        beforeAll(async () => {
          running = await server().testing.startTestServer(serverData(errors().sdk), { target });
        });
        afterAll(async () => {
          await running?.stop();
        });

        it('a family error keeps its code, message and data; a ToolExecutionError is an isError result', async () => {
          const client = await running.connect();
          const call = (name: string) => client.callTool({ name, arguments: {} });

          expect(await rpcError(call('conflict'))).toMatchObject({ code: -32007, data: { expected: 3, actual: 4 } });
          expect((await rpcError(call('conflict'))).message).toContain('Version 3 expected, 4 found');
          expect(await rpcError(call('invalid'))).toMatchObject({ code: -32602, data: { field: 'date', reason: 'past' } });
          // Said as -32602 with the URI, as the SDK's codecs say -32002 on both eras (fast-call-shape.ts): its data survives.
          expect(await rpcError(call('not_found'))).toMatchObject({ code: -32602, data: { uri: 'test://gone' } });
          expect(await rpcError(call('rate_limited'))).toMatchObject({ code: -32003, data: { limit: 10, retryAfter: 7 } });
          expect(await rpcError(call('forbidden'))).toMatchObject({ code: -32001, data: { error: 'insufficient_scope', scope: 'reports:read' } });

          const failure = await call('tool_failure');
          expect(failure.isError).toBe(true);
          expect(failure.content).toEqual(expect.arrayContaining([{ type: 'text', text: 'No city called Atlantis' }]));
          expect(failure.structuredContent).toEqual({ error: 'No city called Atlantis', city: 'Atlantis' });

          // Not exposed: a ConfigError, like any unexpected error, is a sanitized -32603.
          for (const name of ['config', 'plain']) {
            const hidden = await rpcError(call(name));
            expect(hidden.code).toBe(-32603);
            expect(hidden.message).toMatch(/Internal error \(request id .+\)/);
            expect(JSON.stringify(hidden)).not.toContain('/srv/secret');
          }
        });

        it('prompts/get and resources/read keep the code and data too', async () => {
          const client = await running.connect();
          expect(await rpcError(client.getPrompt({ name: 'conflict_prompt' }))).toMatchObject({ code: -32007, data: { prompt: 1 } });
          expect(await rpcError(client.readResource({ uri: 'test://conflict' }))).toMatchObject({ code: -32007, data: { resource: 1 } });
        });
      });
    }

    it('a REST route answers 409 with the code and data', async () => {
      const running = await server().testing.startTestServer(serverData(errors().sdk));
      try {
        const res = await fetch(new URL('/api/conflict', running.handle.url));
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ error: { code: -32007, message: 'REST conflict', data: { rest: 1 } } });
      } finally {
        await running.stop();
      }
    });

    it('a task whose handler throws fails with the code and data (2026-07-28 tasks extension)', async () => {
      const target = server().testing.ALL_TARGETS.find((t) => t.label === 'http/2026') as TestTarget;
      const running = await server().testing.startTestServer(serverData(errors().sdk), { target, config: { mcp: { tasks: { enabled: true } } } });
      try {
        const wire = running.wire2026({ capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
        const created = await wire.request('tools/call', { name: 'conflict_task', arguments: {} });
        expect(created.resultType).toBe('task');
        const deadline = Date.now() + 10_000;
        let task = await wire.request('tasks/get', { taskId: created.taskId });
        while (task.status === 'working' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
          task = await wire.request('tasks/get', { taskId: created.taskId });
        }
        expect(task).toMatchObject({ status: 'failed', statusMessage: 'Task conflict', error: { code: -32007, message: 'Task conflict', data: { task: true } } });
      } finally {
        await running.stop();
      }
    });
  });

  it('a JSON-RPC error read by one build\'s wire client is a WireError of the other', async () => {
    const { esm, cjs } = builds as Record<'esm' | 'cjs', Build>;
    const running = await esm.testing.startTestServer(serverData(cjs.sdk), {
      target: esm.testing.ALL_TARGETS.find((t) => t.label === 'http/2026') as TestTarget,
    });
    try {
      const wire = cjs.testing.connectWire2026({ url: running.handle.url as string });
      const err = await rpcError(wire.request('tools/call', { name: 'conflict', arguments: {} }));
      expect(err).toBeInstanceOf(esm.testing.WireError);
      expect(err).toBeInstanceOf(esm.sdk.BaseMcpError);
      expect(err).toMatchObject({ code: -32007, data: { expected: 3, actual: 4 } });
      // What another server said is not this one's to repeat: rethrown, it is not exposed.
      expect(esm.sdk.toWireError(err, 'r1')).toMatchObject({ code: -32603, message: 'Internal error (request id r1)' });
    } finally {
      await running.stop();
    }
  });
});
