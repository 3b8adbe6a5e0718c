/**
 * The brand of the framework's errors (error-brand.ts, error-guards.ts): a second copy of the
 * classes (what the other build of the package is) is told apart by brand, not by prototype;
 * `instanceof` itself answers from the brand; a consumer's subclass keeps the ordinary check; and
 * every public error class is of the family and names its kind. The builds themselves are tested
 * in test/package/dual-build-errors.test.ts.
 */
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_BRAND, errorKinds, hasErrorKind, kindsOfClass, ownKind } from '../../src/core/error-brand.js';
import { isExposedMcpError, isMcpError, isToolExecutionError } from '../../src/core/error-guards.js';
import { toWireError } from '../../src/core/error-mapping.js';
import * as errors from '../../src/core/errors.js';
import * as api from '../../src/index.js';
import * as testingApi from '../../src/testing/index.js';
import * as dbApi from '../../src/db/index.js';
import * as storesApi from '../../src/stores/index.js';
import * as agentTesterApi from '../../src/agent-tester/index.js';
import { entryPoints } from '../package/entry-points.js';

const { BaseMcpError, ConflictError, ToolExecutionError, ValidationError, RateLimitedError } = errors;

/** A second copy of the error modules, as the other build of the package holds one. */
let copy: typeof errors;
beforeAll(async () => {
  vi.resetModules();
  copy = await import('../../src/core/errors.js');
});

describe('the brand', () => {
  it('is the registry symbol fa-mcp-sdk.error, holding the kinds of the class chain', () => {
    expect(ERROR_BRAND).toBe(Symbol.for('fa-mcp-sdk.error'));
    const err = new ConflictError('x', { a: 1 });
    expect((err as unknown as Record<symbol, unknown>)[Symbol.for('fa-mcp-sdk.error')]).toEqual(['ConflictError', 'BaseMcpError']);
    expect(errorKinds(err)).toEqual(['ConflictError', 'BaseMcpError']);
    expect(hasErrorKind(err, 'ConflictError')).toBe(true);
    expect(hasErrorKind(err, 'ValidationError')).toBe(false);
  });

  it('is hidden and fixed: not in logs, JSON or the keys, and not writable', () => {
    const err = new ValidationError('bad', { field: 'x' });
    expect(Object.keys(err)).not.toContain(String(ERROR_BRAND));
    expect(Object.getOwnPropertyDescriptor(err, ERROR_BRAND)).toMatchObject({ enumerable: false, writable: false, configurable: false });
    expect(inspect(err)).not.toContain('fa-mcp-sdk.error');
    expect(JSON.stringify({ ...err })).not.toContain('BaseMcpError');
    expect(() => Object.defineProperty(err, ERROR_BRAND, { value: ['ToolExecutionError'] })).toThrow(TypeError);
  });

  it('a class names only its own kind; a chain lists them most derived first', () => {
    class Mine extends ConflictError {}
    expect(ownKind(ConflictError)).toBe('ConflictError');
    expect(ownKind(Mine)).toBeUndefined();
    expect(kindsOfClass(Mine)).toEqual(['ConflictError', 'BaseMcpError']);
    expect(ownKind('ConflictError')).toBeUndefined();
  });

  it('anything else carries no kinds', () => {
    for (const value of [new Error('x'), 'ConflictError', 42, null, undefined, {}, { [ERROR_BRAND]: 'ConflictError' }, () => 1]) {
      expect(errorKinds(value)).toEqual([]);
      expect(isMcpError(value)).toBe(false);
      expect(value instanceof BaseMcpError).toBe(false);
    }
  });

  it('names errors by their kind, and a consumer subclass by its own name', () => {
    class StaleVersion extends ConflictError {}
    expect(new ConflictError('x').name).toBe('ConflictError');
    expect(new StaleVersion('x').name).toBe('StaleVersion');
  });
});

describe('a second copy of the classes (the other build)', () => {
  it('is a second copy indeed: the prototypes differ', () => {
    expect(copy.ConflictError).not.toBe(ConflictError);
    expect(Object.getPrototypeOf(new copy.ConflictError('x'))).not.toBe(ConflictError.prototype);
  });

  it('instanceof answers from the brand, for the family and each kind', () => {
    const conflict = new copy.ConflictError('x');
    expect(conflict instanceof ConflictError).toBe(true);
    expect(conflict instanceof BaseMcpError).toBe(true);
    expect(conflict instanceof ValidationError).toBe(false);
    expect(conflict instanceof ToolExecutionError).toBe(false);
    expect(new ConflictError('y') instanceof copy.ConflictError).toBe(true);
    expect(new copy.RateLimitedError('slow', 3) instanceof RateLimitedError).toBe(true);
  });

  it('the guards and the mapper recognise its errors', () => {
    const conflict = new copy.ConflictError('Version 3 expected', { expected: 3 });
    expect(isMcpError(conflict)).toBe(true);
    expect(isExposedMcpError(conflict)).toBe(true);
    expect(isToolExecutionError(conflict)).toBe(false);
    expect(toWireError(conflict, 'r1')).toEqual({ code: -32007, message: 'Version 3 expected', httpStatus: 409, data: { expected: 3 } });

    const failure = new copy.ToolExecutionError('No such city', { city: 'Atlantis' });
    expect(isToolExecutionError(failure)).toBe(true);
    expect(isMcpError(failure)).toBe(true);
    expect(isExposedMcpError(failure)).toBe(false);
  });

  it("a consumer's subclass keeps the ordinary check for itself and the brand for its bases", () => {
    class StaleVersion extends copy.ConflictError {}
    const stale = new StaleVersion('old');
    expect(stale instanceof StaleVersion).toBe(true);
    expect(stale instanceof ConflictError).toBe(true);
    expect(new copy.ConflictError('x') instanceof StaleVersion).toBe(false);
    expect(new ConflictError('x') instanceof StaleVersion).toBe(false);
  });
});

describe('ToolExecutionError is of the family, and not exposed', () => {
  it('extends BaseMcpError; outside a tool it maps like an unexpected error', () => {
    const err = new ToolExecutionError('city not found', { city: 'Atlantis' });
    expect(err).toBeInstanceOf(BaseMcpError);
    expect(err.expose).toBe(false);
    expect(toWireError(err, 'r1')).toEqual({ code: -32603, message: 'Internal error (request id r1)', httpStatus: 500, data: { requestId: 'r1' } });
  });
});

describe('every public error class', () => {
  const entries = {
    'fa-mcp-sdk': api,
    'fa-mcp-sdk/testing': testingApi,
    'fa-mcp-sdk/db': dbApi,
    'fa-mcp-sdk/stores': storesApi,
    'fa-mcp-sdk/agent-tester': agentTesterApi,
  } as Record<string, Record<string, unknown>>;
  const classes = Object.entries(entries).flatMap(([entry, mod]) =>
    Object.entries(mod)
      .filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error)
      .map(([name, value]) => [`${entry}: ${name}`, name, value] as const),
  );

  it('looks at every entry point of package.json', () => {
    expect(Object.keys(entries).sort()).toEqual(entryPoints().map((e) => e.entry).sort());
  });

  it('finds the classes (the list is not empty by accident)', () => {
    expect(classes.map(([label]) => label)).toEqual(
      expect.arrayContaining([
        'fa-mcp-sdk: ConflictError',
        'fa-mcp-sdk: ToolExecutionError',
        'fa-mcp-sdk: ConfigError',
        'fa-mcp-sdk/testing: WireError',
        'fa-mcp-sdk/agent-tester: ModelEndpointError',
        'fa-mcp-sdk/agent-tester: AgentTesterRequestError',
      ]),
    );
  });

  it.each(classes)('%s is BaseMcpError or extends it, and names its own kind (its exported name)', (_label, name, cls) => {
    if (cls !== BaseMcpError) expect((cls as { prototype: unknown }).prototype).toBeInstanceOf(BaseMcpError);
    expect(ownKind(cls)).toBe(name);
  });
});

describe('the kinds that are not exposed map to a sanitized -32603; the others keep their code', () => {
  it.each([
    ['ConfigError', () => new api.ConfigError([{ path: 'db.url', message: 'cannot read /srv/secret.yaml' }])],
    ['SkillError', () => new api.SkillError('/srv/skills/x: no SKILL.md')],
    ['AppViewError', () => new api.AppViewError('appView ui://x: cannot read /srv/view.html')],
    ['InstructionsBudgetError', () => new api.InstructionsBudgetError(3000, 2048)],
    ['WireError', () => new testingApi.WireError(-32007, 'upstream conflict', { upstream: true }, 200)],
  ])('%s', (_name, make) => {
    const err = make();
    expect(isMcpError(err)).toBe(true);
    expect(toWireError(err, 'r2')).toEqual({ code: -32603, message: 'Internal error (request id r2)', httpStatus: 500, data: { requestId: 'r2' } });
  });

  it('TaskLimitError is a rate limit (-32003, retryAfter 5, maxTasks); TaskInputError a conflict (-32007)', () => {
    const limit = new api.TaskLimitError(10);
    expect(limit).toBeInstanceOf(RateLimitedError);
    expect(limit.maxTasks).toBe(10);
    expect(toWireError(limit)).toMatchObject({ code: -32003, httpStatus: 429, data: { maxTasks: 10, retryAfter: 5 } });
    expect(toWireError(new api.TaskInputError('Task t1 ended while waiting for input'))).toEqual({
      code: -32007,
      message: 'Task t1 ended while waiting for input',
      httpStatus: 409,
    });
  });

  it('WireError keeps what the server said: code, data and the HTTP status of the answer', () => {
    const err = new testingApi.WireError(-32007, 'upstream conflict', { upstream: true }, 200);
    expect([err.code, err.message, err.data, err.status, err.name]).toEqual([-32007, 'upstream conflict', { upstream: true }, 200, 'WireError']);
  });
});
