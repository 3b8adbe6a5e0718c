/**
 * The default pipeline as createCore builds it: the steps in their order, run
 * together with the tool executor as the terminal.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCore, type CoreLimits } from '../../src/core/core.js';
import { Registry } from '../../src/core/registry.js';
import { formatToolResult } from '../../src/core/results.js';
import { TRUNCATION_MARKER } from '../../src/core/steps/cap-result.js';
import type { IToolHandlerStructuredResponse, ITool } from '../../src/core/types.js';
import { caught, makeOp, recordingLogger, tool } from './helpers.js';

const limits = (over: Partial<CoreLimits> = {}): CoreLimits => ({
  maxToolResultBytes: 1_000_000,
  toolTimeoutMs: 5_000,
  toolTimeouts: {},
  progressThrottleMs: 100,
  ...over,
});

function core(tools: ITool[], over: Partial<CoreLimits> = {}, version = '1.0.0', argumentErrors?: 'result' | 'protocol') {
  const logger = recordingLogger();
  const c = createCore({
    registry: new Registry({ tools, excludeTools: ['excluded_tool'] }),
    serverInfo: { name: 'test-server', version },
    logger,
    limits: limits(over),
    pageSize: 2,
    cursorSecret: 'core-test-cursor-secret',
    ...(argumentErrors ? { argumentErrors } : {}),
  });
  const call = (name: string, args: Record<string, unknown> = {}) =>
    c.pipeline.run(makeOp({ name, arguments: args }), c.executeTool) as Promise<IToolHandlerStructuredResponse>;
  return { c, call, logger };
}

const forecast = tool('forecast', {
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
  handler: ({ arguments: args }) => (args.city === 'Broken' ? { content: [], structuredContent: { temp: 'warm' } } : formatToolResult({ temp: 21 })),
});

describe('createCore: the default pipeline', () => {
  it('orders the steps: resolve, authorize, deprecation, task support, validate input; on the way out validate output, mirror, then cap', () => {
    expect(core([]).c.pipeline.names()).toEqual(['resolve', 'authorize', 'param-headers', 'deprecation', 'required-client-capabilities', 'task-support', 'validate-input', 'cap-result', 'mirror-structured', 'validate-output']);
  });

  it('runs a valid call end to end', async () => {
    const { call } = core([forecast]);
    expect(await call('forecast', { city: 'Oslo' })).toEqual({ content: [{ type: 'text', text: '{"temp":21}' }], structuredContent: { temp: 21 } });
  });

  it('invalid input never reaches the handler: an isError result by default, -32602 with argumentErrors: protocol', async () => {
    const handler = vi.fn(() => formatToolResult({ temp: 1 }));
    const { call } = core([{ ...forecast, handler }]);
    await expect(call('forecast', { town: 'Oslo' })).resolves.toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool forecast: city is required' }],
      isError: true,
      _meta: { 'fa-mcp/validation': { field: 'city', reason: 'is required' } },
    });
    const protocol = core([{ ...forecast, handler }], {}, '1.0.0', 'protocol');
    await expect(protocol.call('forecast', { town: 'Oslo' })).rejects.toMatchObject({ code: -32602, data: { field: 'city', reason: 'is required' } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('unknown and excluded tools are -32602', async () => {
    const { call } = core([forecast, tool('excluded_tool', { handler: () => formatToolResult('x') })]);
    await expect(call('nope')).rejects.toMatchObject({ code: -32602, data: { field: 'name' } });
    await expect(call('excluded_tool')).rejects.toMatchObject({ code: -32602, data: { field: 'name' } });
  });

  it('an output violation is -32603', async () => {
    const { call } = core([forecast]);
    await expect(call('forecast', { city: 'Broken' })).rejects.toMatchObject({ code: -32603 });
  });

  it('structuredContent without a text copy is mirrored', async () => {
    const { call } = core([tool('bare', { handler: () => ({ content: [], structuredContent: { a: 1 } }) })]);
    expect((await call('bare')).content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });

  it('an oversized result is capped with the marker last', async () => {
    const { call } = core([tool('big', { handler: () => formatToolResult('z'.repeat(50_000)) })], { maxToolResultBytes: 4_096 });
    const out = await call('big');
    expect(out.content.at(-1)).toEqual({ type: 'text', text: TRUNCATION_MARKER });
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(4_096);
  });

  it('per-tool timeouts from the limits apply', async () => {
    const slow = (name: string) =>
      tool(name, { handler: () => new Promise((r) => setTimeout(() => r({ content: [{ type: 'text', text: 'late' }] }), 80)) });
    const { call } = core([slow('slow_a'), slow('slow_b')], { toolTimeoutMs: 5_000, toolTimeouts: { slow_a: 20 } });
    const err = await caught(() => call('slow_a'));
    expect(err).toMatchObject({ code: -32004 });
    expect(await call('slow_b')).toEqual({ content: [{ type: 'text', text: 'late' }] });
  });

  it('a deprecated tool logs a warning on its first call', async () => {
    const { call, logger } = core([tool('old_tool', { deprecated: { until: '2030-01-01', replacedBy: 'forecast' }, handler: () => formatToolResult('ok') })]);
    await call('old_tool');
    await call('old_tool');
    expect(logger.entries.filter((e) => e.level === 'warn')).toHaveLength(1);
  });

  it('the paginator identity is name@version: another version refuses the cursor', () => {
    const items = ['a', 'b', 'c'];
    const cursor = core([]).c.paginator.paginate('tools', items, (s) => s).nextCursor;
    expect(core([]).c.paginator.paginate('tools', items, (s) => s, cursor).items).toEqual(['c']);
    expect(() => core([], {}, '2.0.0').c.paginator.paginate('tools', items, (s) => s, cursor)).toThrow(/Invalid cursor/);
  });

  it('extra steps are appended after the default ones', () => {
    const c = createCore({
      registry: new Registry({}),
      serverInfo: { name: 's', version: '1' },
      logger: recordingLogger(),
      limits: limits(),
      pageSize: 10,
      extraSteps: [{ name: 'audit', run: (_op, next) => next() }],
    });
    expect(c.pipeline.names().at(-1)).toBe('audit');
  });
});
