import { describe, expect, it } from 'vitest';
import { assertToolName, TOOL_NAME_PATTERN } from '../../src/core/tool-name.js';
import { caughtSync } from './helpers.js';

describe('assertToolName', () => {
  it.each(['a', 'get_weather', 'x1', 'a_b_c_9', `a${'b'.repeat(62)}`])('accepts %j', (name) => {
    expect(() => assertToolName(name)).not.toThrow();
    expect(TOOL_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each([
    ['uppercase', 'GetWeather'],
    ['one uppercase letter', 'get_Weather'],
    ['a leading digit', '1tool'],
    ['a leading underscore', '_tool'],
    ['a hyphen', 'get-weather'],
    ['a dot', 'get.weather'],
    ['a space', 'get weather'],
    ['64 characters', `a${'b'.repeat(63)}`],
    ['the empty string', ''],
    ['a trailing newline', 'tool\n'],
    ['non-ASCII letters', 'tëst'],
  ])('refuses %s and names the offending name', (_label, name) => {
    const err = caughtSync(() => assertToolName(name));
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(JSON.stringify(name));
  });

  it.each([
    ['a number', 42],
    ['undefined', undefined],
    ['null', null],
    ['an object', { name: 'tool' }],
  ])('refuses %s (not a string)', (_label, name) => {
    const err = caughtSync(() => assertToolName(name));
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/Invalid tool name/);
  });

  it('the 63-character limit sits exactly between 63 and 64', () => {
    expect(() => assertToolName('t'.repeat(63))).not.toThrow();
    expect(() => assertToolName('t'.repeat(64))).toThrow(/tttt/);
  });
});
