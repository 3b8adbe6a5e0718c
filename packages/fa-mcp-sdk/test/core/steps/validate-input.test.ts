import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/core/errors.js';
import { SchemaValidator } from '../../../src/core/schema-validator.js';
import { validateInputStep } from '../../../src/core/steps/validate-input.js';
import { ARGUMENT_ERRORS_STATE } from '../../../src/core/argument-errors.js';
import { caught, makeOp, tool } from '../helpers.js';

describe('validate-input step', () => {
  const validator = new SchemaValidator();
  const step = validateInputStep(validator, 'protocol');
  const weather = tool('get_weather', {
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    },
  });

  it('valid arguments reach the next step', async () => {
    const next = vi.fn(async () => 'ok');
    expect(await step.run(makeOp({ name: 'get_weather', arguments: { city: 'Oslo', days: 2 } }, { tool: weather }), next)).toBe('ok');
    expect(next).toHaveBeenCalledOnce();
  });

  it('by default a missing required argument is a tool result with isError, the message and { field, reason } in _meta; handler not reached', async () => {
    const next = vi.fn(async () => 'handler ran');
    const op = makeOp({ name: 'get_weather', arguments: {} }, { tool: weather });
    const result = await validateInputStep(validator).run(op, next);
    expect(next).not.toHaveBeenCalled();
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool get_weather: city is required' }],
      isError: true,
      _meta: { 'fa-mcp/validation': { field: 'city', reason: 'is required' } },
    });
    // What metrics and spans read to keep the invalid_params label (tool-outcome.ts).
    expect(op.state.get(ARGUMENT_ERRORS_STATE.answered)).toEqual({ field: 'city', reason: 'is required' });
  });

  it('an operation that asks for the protocol form (the REST tool routes) gets -32602 whatever the configured form', async () => {
    const next = vi.fn(async () => 'handler ran');
    const op = makeOp({ name: 'get_weather', arguments: {} }, { tool: weather });
    op.state.set(ARGUMENT_ERRORS_STATE.mode, 'protocol');
    await expect(validateInputStep(validator, 'result').run(op, next)).rejects.toMatchObject({ code: -32602, data: { field: 'city' } });
    expect(op.state.has(ARGUMENT_ERRORS_STATE.answered)).toBe(false);
    expect(next).not.toHaveBeenCalled();
  });

  it('protocol form: a missing required argument is -32602 with { field, reason, errors }, handler not reached', async () => {
    const next = vi.fn(async () => 'handler ran');
    const err = await caught(() => step.run(makeOp({ name: 'get_weather', arguments: {} }, { tool: weather }), next));
    expect(next).not.toHaveBeenCalled();
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).code).toBe(-32602);
    expect((err as ValidationError).data).toEqual({
      field: 'city',
      reason: 'is required',
      errors: [{ field: 'city', reason: 'is required' }],
    });
  });

  it('an extra argument: "is not allowed"; several problems are all listed', async () => {
    const next = vi.fn(async () => 'handler ran');
    const err = await caught(() =>
      step.run(makeOp({ name: 'get_weather', arguments: { city: 'Oslo', days: 0, color: 'red' } }, { tool: weather }), next),
    );
    expect(next).not.toHaveBeenCalled();
    const data = (err as ValidationError).data as { field: string; reason: string; errors: unknown[] };
    expect(data.errors).toEqual(
      expect.arrayContaining([
        { field: 'color', reason: 'is not allowed' },
        { field: 'days', reason: 'must be >= 1' },
      ]),
    );
    expect(data.errors).toContainEqual({ field: data.field, reason: data.reason });
    expect((err as Error).message).toContain('get_weather');
  });

  it('absent arguments are validated as {} (so a required field is still enforced)', async () => {
    const next = vi.fn(async () => 'handler ran');
    await expect(step.run(makeOp({ name: 'get_weather' }, { tool: weather }), next)).rejects.toMatchObject({ code: -32602 });
    await expect(validateInputStep(validator).run(makeOp({ name: 'get_weather' }, { tool: weather }), next)).resolves.toMatchObject({ isError: true });
    expect(next).not.toHaveBeenCalled();
    const free = tool('free');
    await expect(step.run(makeOp({ name: 'free' }, { tool: free }), async () => 'ok')).resolves.toBe('ok');
  });

  it('arguments that are not an object are a malformed request: -32602 in either form', async () => {
    const next = vi.fn(async () => 'handler ran');
    for (const form of [step, validateInputStep(validator, 'result')]) {
      await expect(form.run(makeOp({ name: 'get_weather', arguments: ['Oslo'] }, { tool: weather }), next)).rejects.toMatchObject({ code: -32602 });
      await expect(form.run(makeOp({ name: 'get_weather', arguments: 'Oslo' }, { tool: weather }), next)).rejects.toMatchObject({ code: -32602 });
    }
    expect(next).not.toHaveBeenCalled();
  });

  it('uses the schema compiled once per tool', async () => {
    const spy = vi.spyOn(validator, 'compile');
    const op = () => makeOp({ name: 'get_weather', arguments: { city: 'Oslo' } }, { tool: weather });
    await step.run(op(), async () => 'ok');
    const fn = spy.mock.results[0]?.value;
    await step.run(op(), async () => 'ok');
    expect(spy.mock.results[1]?.value).toBe(fn);
    spy.mockRestore();
  });
});
