/** The protocol-free parts of client input: capability rules, the replay session, the requestState payload. */
import { describe, expect, it } from 'vitest';
import { assertClientCapability, missingClientCapability } from '../../src/core/client-capabilities.js';
import { ClientInputSession, fitsKind, InputRequiredSignal } from '../../src/core/client-input.js';
import { MissingClientCapabilityError, ValidationError } from '../../src/core/errors.js';
import { SchemaValidator } from '../../src/core/schema-validator.js';
import { acceptPayload, bindingDigest, mintPayload, stableJson } from '../../src/state/request-state.js';

describe('missingClientCapability', () => {
  it('reads a bare elicitation object as form mode only', () => {
    expect(missingClientCapability('elicitation', {}, { elicitation: {} })).toBeUndefined();
    expect(missingClientCapability('elicitation', { mode: 'url' }, { elicitation: {} })).toEqual({ elicitation: { url: {} } });
    expect(missingClientCapability('elicitation', {}, { elicitation: { url: {} } })).toEqual({ elicitation: { form: {} } });
    expect(missingClientCapability('elicitation', { mode: 'url' }, { elicitation: { url: {} } })).toBeUndefined();
    expect(missingClientCapability('elicitation', {}, {})).toEqual({ elicitation: { form: {} } });
  });

  it('names sampling, sampling with tools, and roots', () => {
    expect(missingClientCapability('sampling', {}, {})).toEqual({ sampling: {} });
    expect(missingClientCapability('sampling', { tools: [] }, { sampling: {} })).toEqual({ sampling: { tools: {} } });
    expect(missingClientCapability('sampling', { tools: [] }, { sampling: { tools: {} } })).toBeUndefined();
    expect(missingClientCapability('roots', {}, { roots: { listChanged: true } })).toBeUndefined();
    expect(missingClientCapability('roots', {}, { sampling: {} })).toEqual({ roots: {} });
  });

  it('throws the -32021 error with data.requiredCapabilities', () => {
    let err: unknown;
    try {
      assertClientCapability('sampling', {}, {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MissingClientCapabilityError);
    expect(err).toMatchObject({ code: -32021, httpStatus: 400, data: { requiredCapabilities: { sampling: {} } } });
  });
});

describe('ClientInputSession', () => {
  const answer = (name: string) => ({ action: 'accept', content: { name } });

  it('gives repeated keys a rank suffix, so an answered key is never asked again', async () => {
    const session = new ClientInputSession({ responses: { elicitation: answer('a') } });
    expect(await session.ask('elicitation', { message: 'first' })).toEqual(answer('a'));
    await expect(session.ask('elicitation', { message: 'second' })).rejects.toBeInstanceOf(InputRequiredSignal);
    expect([...session.pending.keys()]).toEqual(['elicitation-2']);
    expect(session.used).toEqual({ elicitation: answer('a') });
  });

  it('prefers the answer carried in the state over one resent by the client', async () => {
    const session = new ClientInputSession({ carried: { k: answer('kept') }, responses: { k: answer('changed') } });
    expect(await session.ask('elicitation', {}, 'k')).toEqual(answer('kept'));
  });

  it('treats an answer of the wrong kind as missing', async () => {
    const session = new ClientInputSession({ responses: { roots: answer('x') } });
    await expect(session.ask('roots', {})).rejects.toBeInstanceOf(InputRequiredSignal);
    expect(fitsKind('roots', { roots: [] })).toBe(true);
    expect(fitsKind('sampling', { role: 'assistant', content: { type: 'text', text: 'x' } })).toBe(true);
    expect(fitsKind('elicitation', { action: 'maybe' })).toBe(false);
  });

  it('registers requests made together before any of them rejects', async () => {
    const session = new ClientInputSession();
    await expect(Promise.all([session.ask('elicitation', {}), session.ask('sampling', {}), session.ask('roots', {})])).rejects.toBeInstanceOf(
      InputRequiredSignal,
    );
    expect([...session.pending.keys()]).toEqual(['elicitation', 'sampling', 'roots']);
  });

  it('lets an immediate refusal win over a pending question in Promise.all', async () => {
    const session = new ClientInputSession();
    const refusal = new MissingClientCapabilityError({ sampling: {} });
    await expect(Promise.all([session.ask('elicitation', {}), Promise.reject(refusal)])).rejects.toBe(refusal);
  });

  it('validates accepted form content against its requestedSchema', async () => {
    const validator = new SchemaValidator();
    const session = new ClientInputSession({
      responses: { elicitation: { action: 'accept', content: { name: 7 } } },
      validate: (schema, value) => validator.validate(schema, value),
    });
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    await expect(session.ask('elicitation', { requestedSchema: schema })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('requestState payload', () => {
  const binding = { method: 'tools/call', name: 'greet', arguments: { b: 1, a: [1, { y: 2, x: 1 }] } };

  it('digests arguments whatever their key order, and changes with tool, arguments or caller', () => {
    expect(stableJson({ b: 1, a: { y: 2, x: 1 } })).toBe('{"a":{"x":1,"y":2},"b":1}');
    const same = bindingDigest({ ...binding, arguments: { a: [1, { x: 1, y: 2 }], b: 1 } });
    expect(same).toBe(bindingDigest(binding));
    expect(bindingDigest({ ...binding, name: 'other' })).not.toBe(same);
    expect(bindingDigest({ ...binding, arguments: { b: 2 } })).not.toBe(same);
    expect(bindingDigest({ ...binding, subject: 'alice' })).not.toBe(same);
  });

  it('accepts its own payload and refuses a foreign or malformed one with -32602', () => {
    const payload = mintPayload(binding, 2, { k: { action: 'cancel' } });
    expect(acceptPayload(payload, binding)).toEqual(payload);
    expect(() => acceptPayload(payload, { ...binding, subject: 'mallory' })).toThrow(ValidationError);
    expect(() => acceptPayload('a raw string', binding)).toThrow(ValidationError);
    expect(() => acceptPayload({ ...payload, r: 0 }, binding)).toThrow(ValidationError);
  });
});
