import { describe, expect, it, vi } from 'vitest';
import { ResourceNotFoundError } from '../../src/core/errors.js';
import { Registry } from '../../src/core/registry.js';
import { describeResource, describeTemplate, readResource } from '../../src/core/resources.js';
import { caught, makeCtx } from './helpers.js';

describe('readResource', () => {
  const templateRead = vi.fn((uri: string, vars: Record<string, string>) => `item ${vars.id} at ${uri}`);
  const registry = new Registry({
    resources: [
      { uri: 'test://static/readme', name: 'readme', mimeType: 'text/markdown', content: '# Hello' },
      { uri: 'test://dynamic', name: 'dynamic', content: (uri, ctx) => ({ text: `${uri} for ${ctx.requestId}` }) },
      { uri: 'test://blob', name: 'blob', mimeType: 'image/png', content: async () => ({ blob: 'iVBORw0KGgo=' }) },
      {
        uri: 'test://multi',
        name: 'multi',
        content: () => [
          { uri: 'test://multi#1', text: 'one' },
          { uri: 'test://multi#2', text: 'two' },
        ],
      },
    ],
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'by_id', mimeType: 'text/plain', read: templateRead }],
  });

  it('reads a static resource', async () => {
    expect(await readResource(registry, 'test://static/readme', makeCtx())).toEqual([
      { uri: 'test://static/readme', mimeType: 'text/markdown', text: '# Hello' },
    ]);
  });

  it('reads a function resource with the uri and context; text, blob and full contents', async () => {
    expect(await readResource(registry, 'test://dynamic', makeCtx({ requestId: 'r-7' }))).toEqual([{ uri: 'test://dynamic', text: 'test://dynamic for r-7' }]);
    expect(await readResource(registry, 'test://blob', makeCtx())).toEqual([{ uri: 'test://blob', mimeType: 'image/png', blob: 'iVBORw0KGgo=' }]);
    expect(await readResource(registry, 'test://multi', makeCtx())).toHaveLength(2);
  });

  it('reads through a template with its variables', async () => {
    const ctx = makeCtx();
    expect(await readResource(registry, 'test://template/a%20b/data', ctx)).toEqual([
      { uri: 'test://template/a%20b/data', mimeType: 'text/plain', text: 'item a b at test://template/a%20b/data' },
    ]);
    expect(templateRead).toHaveBeenCalledWith('test://template/a%20b/data', { id: 'a b' }, ctx);
  });

  it('an unknown uri is ResourceNotFoundError -32002 with data.uri', async () => {
    const err = await caught(() => readResource(registry, 'test://nowhere', makeCtx()));
    expect(err).toBeInstanceOf(ResourceNotFoundError);
    expect((err as ResourceNotFoundError).code).toBe(-32002);
    expect((err as ResourceNotFoundError).httpStatus).toBe(404);
    expect((err as ResourceNotFoundError).data).toEqual({ uri: 'test://nowhere' });
    await expect(readResource(registry, 'test://template/1/other', makeCtx())).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('describeResource / describeTemplate', () => {
  it('leave out the content and read functions', () => {
    const d = describeResource({ uri: 'test://r', name: 'r', mimeType: 'text/plain', content: 'secret body' });
    expect(d).toEqual({ uri: 'test://r', name: 'r', mimeType: 'text/plain' });
    const t = describeTemplate({ uriTemplate: 'test://{a}', name: 't', read: () => 'x', complete: { a: ['1'] } });
    expect(t).toEqual({ uriTemplate: 'test://{a}', name: 't' });
  });

  it('a deprecated resource shows the marker', () => {
    const d = describeResource({ uri: 'test://old', name: 'old', description: 'Old.', content: 'x', deprecated: { until: '2026-08-28' } });
    expect(d.description).toBe('[DEPRECATED until 2026-08-28] Old.');
    expect('deprecated' in d).toBe(false);
  });
});
