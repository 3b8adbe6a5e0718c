import { describe, expect, it } from 'vitest';
import { assertToolName, MCP_TOOL_NAME_PATTERN, TOOL_NAME_PATTERN } from '../../src/core/tool-name.js';
import { Registry } from '../../src/core/registry.js';
import { caught, caughtSync, makeCtx, tool } from './helpers.js';

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

describe('assertToolName: the rule in force is named in the message', () => {
  it('snake_case (the default) names itself, the setting and what mcp would allow', () => {
    const message = (caughtSync(() => assertToolName('get-sum')) as Error).message;
    expect(message).toContain('snake_case');
    expect(message).toContain('mcp.tools.nameRule is "snake_case"');
    expect(message).toContain('MCP_TOOL_NAME_RULE');
    expect(message).toContain(String(TOOL_NAME_PATTERN));
  });

  it('mcp names itself and the setting', () => {
    const message = (caughtSync(() => assertToolName('get sum', 'mcp')) as Error).message;
    expect(message).toContain('"get sum"');
    expect(message).toContain('mcp.tools.nameRule is "mcp"');
    expect(message).toContain(String(MCP_TOOL_NAME_PATTERN));
  });
});

describe('assertToolName under mcp.tools.nameRule: mcp (the MCP revisions\' rule)', () => {
  it.each(['get-sum', 'trigger-long-running-operation', 'admin.tools.list', 'GetWeather', '_private', '1st', '-', '.', 'A_b-C.9', 'x'.repeat(128)])('accepts %j', (name) => {
    expect(() => assertToolName(name, 'mcp')).not.toThrow();
    expect(MCP_TOOL_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each([
    ['the empty string', ''],
    ['129 characters', 'x'.repeat(129)],
    ['a space', 'get sum'],
    ['a slash', 'tools/get'],
    ['a colon', 'ns:tool'],
    ['non-ASCII letters', 'tëst'],
    ['a trailing newline', 'tool\n'],
  ])('refuses %s', (_label, name) => {
    expect(() => assertToolName(name, 'mcp')).toThrow(JSON.stringify(name));
  });

  it('the 128-character limit sits exactly between 128 and 129', () => {
    expect(() => assertToolName('t'.repeat(128), 'mcp')).not.toThrow();
    expect(() => assertToolName('t'.repeat(129), 'mcp')).toThrow(/tttt/);
  });
});

describe('Registry: the configured rule applies to static tools and tools given as a function', () => {
  it('snake_case refuses get-sum at construction; mcp accepts it', () => {
    expect(() => new Registry({ tools: [tool('get-sum')] })).toThrow(/mcp\.tools\.nameRule is "snake_case"/);
    expect(() => new Registry({ tools: [tool('get-sum'), tool('admin.list')], toolNameRule: 'mcp' })).not.toThrow();
  });

  it('dynamic tools are checked by the same rule at their first list', async () => {
    const strict = new Registry({ tools: () => [tool('get-sum')] });
    expect(((await caught(() => strict.listTools(makeCtx()))) as Error).message).toContain('"get-sum"');
    const relaxed = new Registry({ tools: () => [tool('get-sum'), tool('a b')], toolNameRule: 'mcp' });
    await expect(relaxed.listTools(makeCtx())).rejects.toThrow(/"a b".*mcp\.tools\.nameRule is "mcp"/);
    const fine = new Registry({ tools: () => [tool('get-sum')], toolNameRule: 'mcp' });
    expect((await fine.listTools(makeCtx())).map((t) => t.name)).toEqual(['get-sum']);
  });
});
