import { describe, expect, it } from 'vitest';
import { InternalError } from '../../../src/core/errors.js';
import { SchemaValidator } from '../../../src/core/schema-validator.js';
import { validateOutputStep } from '../../../src/core/steps/validate-output.js';
import type { TToolHandlerResponse } from '../../../src/core/types.js';
import { caught, makeOp, tool } from '../helpers.js';

describe('validate-output step', () => {
  const step = validateOutputStep(new SchemaValidator());
  const typed = tool('forecast', {
    outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
  });
  const run = (result: TToolHandlerResponse, t = typed) => step.run(makeOp({ name: t.name }, { tool: t }), async () => result);

  it('a conforming structuredContent passes unchanged', async () => {
    const result = { content: [{ type: 'text' as const, text: '{"temp":3}' }], structuredContent: { temp: 3 } };
    expect(await run(result)).toBe(result);
  });

  it('a violation is InternalError -32603 naming the field', async () => {
    const err = await caught(() => run({ content: [], structuredContent: { temp: 'cold' } }));
    expect(err).toBeInstanceOf(InternalError);
    expect((err as InternalError).code).toBe(-32603);
    expect((err as InternalError).httpStatus).toBe(500);
    expect((err as InternalError).data).toMatchObject({ field: 'temp', reason: 'must be number' });
    expect((err as Error).message).toContain('forecast');
  });

  it('an isError result is never refused', async () => {
    const result = { content: [{ type: 'text' as const, text: 'city not found' }], isError: true };
    expect(await run(result)).toBe(result);
    const matching = { content: [{ type: 'text' as const, text: 'stale' }], structuredContent: { temp: 1 }, isError: true };
    expect(await run(matching)).toBe(matching);
  });

  it("an isError result whose structuredContent violates the schema carries it as JSON text instead (clients validate it)", async () => {
    const withBadStructured = { content: [{ type: 'text' as const, text: 'city not found' }], structuredContent: { error: 'city not found', city: 'Atlantis' }, isError: true };
    const out = (await run(withBadStructured)) as { isError?: boolean; content: unknown };
    expect(out).not.toHaveProperty('structuredContent');
    expect(out.isError).toBe(true);
    expect(out.content).toEqual([
      { type: 'text', text: 'city not found' },
      { type: 'text', text: '{"error":"city not found","city":"Atlantis"}' },
    ]);
  });

  it('missing structuredContent while an outputSchema is declared is -32603', async () => {
    const err = await caught(() => run({ content: [{ type: 'text', text: 'hi' }] }));
    expect(err).toBeInstanceOf(InternalError);
    expect((err as InternalError).code).toBe(-32603);
  });

  it('a tool without outputSchema is not checked', async () => {
    const plain = tool('plain');
    const result = { content: [], structuredContent: { anything: true } };
    expect(await run(result, plain)).toBe(result);
  });
});
