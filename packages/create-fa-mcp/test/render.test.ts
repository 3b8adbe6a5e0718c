import { describe, expect, it } from 'vitest';
import { leftoverPlaceholder, RenderError, renderTemplate } from '../src/render.js';

describe('renderTemplate', () => {
  const vars = { name: 'my-server', port: '3000', title: 'Say "hi" \\ O\'Brien' };

  it('fills {{key}} and {{ key }} with the value', () => {
    expect(renderTemplate('{{name}} on {{ port }}', vars)).toBe('my-server on 3000');
  });

  it('|json gives a string literal that TypeScript, JSON and YAML read back exactly', () => {
    const out = renderTemplate('const t = {{title|json}};', vars);
    expect(out).toBe(`const t = ${JSON.stringify(vars.title)};`);
    expect(JSON.parse(out.slice('const t = '.length, -1))).toBe(vars.title);
  });

  it('|jsonInner escapes for the inside of a JSON string', () => {
    const out = renderTemplate('{ "description": "{{title|jsonInner}}" }', vars);
    expect(JSON.parse(out)).toEqual({ description: vars.title });
  });

  it('inserts values once and refuses output that would still hold {{ (values are never re-scanned)', () => {
    expect(renderTemplate('{{a}}', { a: '{b}', b: 'x' })).toBe('{b}');
    expect(() => renderTemplate('{{a}}', { a: '{{b}}', b: 'x' }, 'f')).toThrow(/f: malformed placeholder/);
  });

  it('refuses an unknown placeholder, an unknown filter and a malformed one, naming the file', () => {
    expect(() => renderTemplate('x {{missing}}', vars, 'src/a.ts')).toThrow(new RenderError('src/a.ts: unknown placeholder {{missing}}'));
    expect(() => renderTemplate('{{name|upper}}', vars, 'b')).toThrow(/unknown filter "upper"/);
    expect(() => renderTemplate('{{ name', vars, 'c')).toThrow(/c: malformed placeholder/);
    expect(() => renderTemplate('{{na-me}}', vars, 'd')).toThrow(/malformed placeholder/);
  });

  it('leaves text without placeholders alone (single braces, ${} and GitHub-less YAML)', () => {
    const text = 'const o = { a: { b: 1 }}; `${x}`; uri: users://{id}';
    expect(renderTemplate(text, vars)).toBe(text);
    expect(leftoverPlaceholder(text)).toBeUndefined();
  });
});
