import { describe, expect, it, vi } from 'vitest';
import { Registry } from '../../src/core/registry.js';
import type { IResourceTemplateInfo, ITool, JsonObject } from '../../src/core/types.js';
import { UriTemplateMatcher } from '../../src/core/uri-template.js';
import { caught, caughtSync, makeCtx, tool } from './helpers.js';

const template = (uriTemplate: string, name = 'tpl'): IResourceTemplateInfo => ({ uriTemplate, name, read: () => 'x' });

describe('Registry: static tools, checked at construction', () => {
  it('keeps registration order', async () => {
    const reg = new Registry({ tools: [tool('b_tool'), tool('a_tool'), tool('c_tool')] });
    expect((await reg.listTools(makeCtx())).map((t) => t.name)).toEqual(['b_tool', 'a_tool', 'c_tool']);
    expect(reg.hasDynamicTools).toBe(false);
    expect(reg.hasTools).toBe(true);
  });

  it('an empty registry has no tools', () => {
    const reg = new Registry({});
    expect(reg.hasTools).toBe(false);
  });

  it('a bad name throws at construction and names the tool', () => {
    const err = caughtSync(() => new Registry({ tools: [tool('good_one'), tool('Bad-Name')] }));
    expect((err as Error).message).toContain('"Bad-Name"');
  });

  it('a duplicate name throws', () => {
    expect(() => new Registry({ tools: [tool('twice'), tool('once'), tool('twice')] })).toThrow(/Duplicate tool name "twice"/);
  });

  it('an inputSchema that is not type object throws with the name', () => {
    // the cast stands for a consumer writing JavaScript, where the type is not checked
    const bad = tool('str_input', { inputSchema: { type: 'string' } as unknown as ITool['inputSchema'] });
    expect(() => new Registry({ tools: [bad] })).toThrow(/str_input.*inputSchema/);
    const missing = { name: 'no_schema' } as unknown as ITool;
    expect(() => new Registry({ tools: [missing] })).toThrow(/no_schema/);
  });

  it('an inputSchema that does not compile throws with the name', () => {
    const broken = tool('broken_ref', {
      inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    });
    expect(() => new Registry({ tools: [broken] })).toThrow(/Tool "broken_ref": its schema does not compile/);
    const badType = tool('bad_type', { inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } });
    expect(() => new Registry({ tools: [badType] })).toThrow(/bad_type/);
  });

  it('an outputSchema that does not compile throws too', () => {
    const t = tool('bad_output', { outputSchema: { type: 'object', properties: { a: { pattern: '([' } } } });
    expect(() => new Registry({ tools: [t] })).toThrow(/bad_output/);
  });

  it('defers the compile of a schema that cannot fail to compile, and compiles the others at once', () => {
    const simple = tool('simple_tool', { inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, outputSchema: { type: 'object', properties: { n: { type: 'number' } } } });
    const withRef = tool('ref_tool', { inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/s' } }, $defs: { s: { type: 'string' } } } });
    const reg = new Registry({ tools: [simple, withRef] });
    expect(reg.validator.isCompiled(simple.inputSchema)).toBe(false);
    expect(reg.validator.isCompiled(simple.outputSchema as JsonObject)).toBe(false);
    expect(reg.validator.isCompiled(withRef.inputSchema)).toBe(true);
    expect(reg.compileSchemas()).toBe(2);
    expect(reg.validator.isCompiled(simple.inputSchema)).toBe(true);
    expect(reg.validator.isCompiled(simple.outputSchema as JsonObject)).toBe(true);
    expect(reg.compileSchemas()).toBe(0);
  });

  it('a deferred schema validates on first use exactly as one compiled at start', () => {
    const properties = { q: { type: 'string', minLength: 2 }, n: { type: 'integer', maximum: 3 } };
    const deferred = tool('deferred_tool', { inputSchema: { type: 'object', properties, required: ['q'], additionalProperties: false } });
    // the same rules with an (unused) $defs: compiled at construction
    const eager = tool('eager_tool', { inputSchema: { type: 'object', properties, required: ['q'], additionalProperties: false, $defs: {} } });
    const reg = new Registry({ tools: [deferred, eager] });
    expect(reg.validator.isCompiled(deferred.inputSchema)).toBe(false);
    expect(reg.validator.isCompiled(eager.inputSchema)).toBe(true);
    for (const value of [{ q: 'ok', n: 1 }, {}, { q: 'x', n: 9, extra: true }, { q: 5, n: 1.5 }]) {
      const outcome = reg.validator.validate(deferred.inputSchema, value);
      expect(outcome).toEqual(reg.validator.validate(eager.inputSchema, value));
    }
    expect(reg.validator.validate(deferred.inputSchema, { q: 'x', n: 9, extra: true }).issues).toEqual([
      { field: 'extra', reason: 'is not allowed' },
      { field: 'q', reason: 'must NOT have fewer than 2 characters' },
      { field: 'n', reason: 'must be <= 3' },
    ]);
  });

  it('accepts a 2020-12 $schema and additionalProperties:false', () => {
    const t = tool('strict_tool', {
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { q: { type: 'string' } },
        additionalProperties: false,
      },
    });
    expect(() => new Registry({ tools: [t] })).not.toThrow();
  });

  it('an invalid deprecation date is refused at construction', () => {
    expect(() => new Registry({ tools: [tool('old_tool', { deprecated: { until: 'soon' } })] })).toThrow(/old_tool/);
  });

  it('duplicate prompts and resources are refused', () => {
    expect(() => new Registry({ prompts: [{ name: 'p', content: 'a' }, { name: 'p', content: 'b' }] })).toThrow(/Duplicate prompt "p"/);
    expect(
      () =>
        new Registry({
          resources: [
            { uri: 'test://r', name: 'r1', content: 'a' },
            { uri: 'test://r', name: 'r2', content: 'b' },
          ],
        }),
    ).toThrow(/Duplicate resource "test:\/\/r"/);
  });
});

describe('Registry: tools given as a function', () => {
  it('a bad name does not throw at construction, but at the first list, with the name', async () => {
    const source = vi.fn(() => [tool('fine'), tool('Not_Fine')]);
    const reg = new Registry({ tools: source });
    expect(source).not.toHaveBeenCalled();
    expect(reg.hasDynamicTools).toBe(true);
    const err = await caught(() => reg.listTools(makeCtx()));
    expect((err as Error).message).toContain('"Not_Fine"');
    // still refused on the next list: a bad tool is never served
    await expect(reg.listTools(makeCtx())).rejects.toThrow(/Not_Fine/);
  });

  it('a bad name also fails a call (findTool), not only a list', async () => {
    const reg = new Registry({ tools: () => [tool('x-y')] });
    await expect(reg.findTool('x-y', makeCtx())).rejects.toThrow(/"x-y"/);
  });

  it('receives the request context and may vary per request', async () => {
    const reg = new Registry({
      tools: async (ctx) => (ctx.auth?.scopes.includes('admin') ? [tool('read'), tool('admin_only')] : [tool('read')]),
    });
    const admin = makeCtx({ auth: { subject: 'a', scopes: ['admin'], groups: [], claims: {} } });
    expect((await reg.listTools(makeCtx())).map((t) => t.name)).toEqual(['read']);
    expect((await reg.listTools(admin)).map((t) => t.name)).toEqual(['read', 'admin_only']);
    expect(await reg.findTool('admin_only', makeCtx())).toBeUndefined();
  });

  it('a duplicate among dynamic tools is refused', async () => {
    const reg = new Registry({ tools: () => [tool('dup'), tool('dup')] });
    await expect(reg.listTools(makeCtx())).rejects.toThrow(/Duplicate tool name "dup"/);
  });

  it('compiles each dynamic tool schema once (same tool objects are not re-checked)', async () => {
    // a $ref: compiled when the tool is first seen, not deferred (schema-precheck.ts)
    const tools = [tool('stable', { inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/s' } }, $defs: { s: { type: 'string' } } } })];
    const reg = new Registry({ tools: () => tools });
    const spy = vi.spyOn(reg.validator, 'compile');
    await reg.listTools(makeCtx());
    await reg.listTools(makeCtx());
    await reg.findTool('stable', makeCtx());
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe('Registry: excluded tools', () => {
  it('disappear from listTools and findTool', async () => {
    const reg = new Registry({ tools: [tool('keep'), tool('drop'), tool('also_keep')], excludeTools: ['drop'] });
    expect((await reg.listTools(makeCtx())).map((t) => t.name)).toEqual(['keep', 'also_keep']);
    expect(await reg.findTool('drop', makeCtx())).toBeUndefined();
    expect((await reg.findTool('keep', makeCtx()))?.name).toBe('keep');
    expect(reg.isExcluded('drop')).toBe(true);
    expect(reg.isExcluded('keep')).toBe(false);
  });

  it('apply to dynamic tools too', async () => {
    const reg = new Registry({ tools: () => [tool('keep'), tool('drop')], excludeTools: ['drop'] });
    expect((await reg.listTools(makeCtx())).map((t) => t.name)).toEqual(['keep']);
    expect(await reg.findTool('drop', makeCtx())).toBeUndefined();
  });

  it('an unknown tool is simply not found', async () => {
    const reg = new Registry({ tools: [tool('keep')] });
    expect(await reg.findTool('nope', makeCtx())).toBeUndefined();
  });
});

describe('Registry: resource templates', () => {
  const reg = new Registry({
    resourceTemplates: [template('test://template/{id}/data', 'by_id'), template('file:///{+path}', 'file'), template('test://a/{x}/{y}', 'two')],
  });

  it('matches test://template/{id}/data and extracts the variable', () => {
    const hit = reg.findTemplate('test://template/42/data');
    expect(hit?.template.def.name).toBe('by_id');
    expect(hit?.variables).toEqual({ id: '42' });
  });

  it('decodes percent-encoded values', () => {
    expect(reg.findTemplate('test://template/hello%20world%2Fx/data')?.variables).toEqual({ id: 'hello world/x' });
    expect(reg.findTemplate('test://template/caf%C3%A9/data')?.variables).toEqual({ id: 'café' });
  });

  it('keeps a malformed escape as written instead of failing', () => {
    expect(reg.findTemplate('test://template/100%/data')?.variables).toEqual({ id: '100%' });
  });

  it('a simple variable does not span slashes', () => {
    expect(reg.findTemplate('test://template/a/b/data')).toBeUndefined();
  });

  it('{+path} spans slashes', () => {
    const hit = reg.findTemplate('file:///etc/app/config.yaml');
    expect(hit?.template.def.name).toBe('file');
    expect(hit?.variables).toEqual({ path: 'etc/app/config.yaml' });
  });

  it('several variables', () => {
    expect(reg.findTemplate('test://a/1/2')?.variables).toEqual({ x: '1', y: '2' });
  });

  it('no match', () => {
    expect(reg.findTemplate('test://template/42/other')).toBeUndefined();
    expect(reg.findTemplate('test://template//data')).toBeUndefined();
    expect(reg.findTemplate('other://template/42/data')).toBeUndefined();
    expect(reg.findTemplate('prefix-test://template/42/data')).toBeUndefined();
    expect(reg.findTemplate('test://template/42/data/extra')).toBeUndefined();
  });
});

describe('UriTemplateMatcher', () => {
  it('treats regex characters of the literal part literally', () => {
    const m = new UriTemplateMatcher('test://x.y/{id}?(a)');
    expect(m.variables).toEqual(['id']);
    expect(m.match('test://x.y/7?(a)')).toEqual({ id: '7' });
    expect(m.match('test://xzy/7?(a)')).toBeUndefined();
  });

  it('a template without variables matches only itself', () => {
    const m = new UriTemplateMatcher('test://fixed');
    expect(m.match('test://fixed')).toEqual({});
    expect(m.match('test://fixed2')).toBeUndefined();
  });
});
