import { describe, expect, it } from 'vitest';
import { maskSecrets, maskSecretsInString } from '../../src/ops/mask-secrets.js';

describe('maskSecrets', () => {
  it('masks secret-looking keys at any depth and returns a deep copy', () => {
    const input = {
      user: 'ann',
      password: 'p1',
      nested: {
        headers: { Authorization: 'Bearer abc', Cookie: 'sid=1', 'X-Api-Key': 'k', accept: 'json' },
        list: [{ pass: 'p2', clientSecret: 's', refresh_token: 'r', private_key: 'pk', ok: 1 }],
      },
    };
    const snapshot = structuredClone(input);
    const output = maskSecrets(input) as typeof input;

    expect(output).toEqual({
      user: 'ann',
      password: '***',
      nested: {
        headers: { Authorization: '***', Cookie: '***', 'X-Api-Key': '***', accept: 'json' },
        list: [{ pass: '***', clientSecret: '***', refresh_token: '***', private_key: '***', ok: 1 }],
      },
    });
    expect(input).toEqual(snapshot);
    expect(output).not.toBe(input);
    expect(output.nested).not.toBe(input.nested);
    expect(output.nested.list).not.toBe(input.nested.list);
  });

  it('masks credentials inside strings', () => {
    expect(maskSecrets({ note: 'sent Bearer eyJhbGciOi.x-y_z= and basic dXNlcjpwYXNz' })).toEqual({
      note: 'sent Bearer *** and basic ***',
    });
    expect(maskSecretsInString('postgres://app:hunter2@db:5432/main')).toBe('postgres://app:***@db:5432/main');
    expect(maskSecrets('plain text')).toBe('plain text');
  });

  it('copies primitives, dates, errors, maps and sets safely', () => {
    const date = new Date(0);
    const err = new Error('bad Bearer tok123');
    const out = maskSecrets({ n: 1, b: true, nil: null, u: undefined, date, err, map: new Map([['token', 'x']]) }) as Record<
      string,
      unknown
    >;
    expect(out.n).toBe(1);
    expect(out.nil).toBeNull();
    expect(out.date).toEqual(date);
    expect(out.date).not.toBe(date);
    expect((out.err as { message: string }).message).toBe('bad Bearer ***');
    expect(err.message).toBe('bad Bearer tok123');
    expect((out.map as Map<string, unknown>).get('token')).toBe('***');
    expect([...(maskSecrets(new Set(['Basic abc'])) as Set<string>)]).toEqual(['Basic ***']);
  });

  it('survives cycles and shared references', () => {
    const shared = { v: 1 };
    const node: Record<string, unknown> = { a: shared, b: shared };
    node.self = node;
    const out = maskSecrets(node) as Record<string, unknown>;
    expect(out.self).toBe('[Circular]');
    expect(out.a).toEqual({ v: 1 });
    expect(out.b).toEqual({ v: 1 });
  });
});
