import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema, forEachLeaf, loadConfig, renderConfigYaml, schemaDefaults } from '../../src/config/index.js';

const extraSchema = {
  upstream: {
    type: 'object',
    description: 'The upstream API.',
    additionalProperties: false,
    properties: {
      url: { type: 'string', default: 'https://api.example.com', description: 'Base URL.', 'x-env': ['UPSTREAM_URL'] },
      apiKey: { type: 'string', default: '', description: 'API key.', 'x-env': ['UPSTREAM_API_KEY'], 'x-secret': true },
    },
  },
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('renderConfigYaml', () => {
  const text = renderConfigYaml(configSchema);

  it('parses back to exactly the schema defaults', () => {
    expect(parseYaml(text)).toEqual(schemaDefaults(configSchema));
  });

  it('puts a comment with the accepted values and env variables above every leaf', () => {
    const lines = text.split('\n');
    // Dotted path of every `key: value` line, from its indentation.
    const lineOf = new Map<string, number>();
    const stack: string[] = [];
    lines.forEach((line, i) => {
      const m = /^( *)([\w-]+):(.*)$/.exec(line);
      if (!m) return;
      const depth = (m[1] as string).length / 2;
      stack.length = depth;
      stack.push(m[2] as string);
      lineOf.set(stack.join('.'), i);
    });
    forEachLeaf(configSchema, (path, node) => {
      const dotted = path.join('.');
      const at = lineOf.get(dotted) as number;
      expect(at, dotted).toBeGreaterThan(0);
      expect(lines[at], dotted).toMatch(new RegExp(`: ${JSON.stringify(node.default).replace(/[[\]{}().*+?^$|\\]/g, '\\$&')}$`));
      const typeLine = lines[at - 1] as string;
      expect(typeLine.trimStart().startsWith('# '), dotted).toBe(true);
      for (const env of node['x-env'] ?? []) expect(typeLine, dotted).toContain(env);
      // The description sits in the comment lines just above, wrapped at 100 columns.
      let top = at - 2;
      while (lines[top - 1]?.trimStart().startsWith('# ')) top--;
      const block = lines.slice(top, at - 1).map((l) => l.trim().replace(/^# /, '')).join(' ');
      if (node.description) expect(block, dotted).toContain(node.description.replace(/\s+/g, ' '));
      for (const l of lines.slice(top, at - 1)) expect(l.length, dotted).toBeLessThanOrEqual(100);
    });
  });

  it('is a valid config/default.yaml for the loader', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'fa-mcp-yaml-'));
    dirs.push(cwd);
    const values = { webServer: { port: 4321 }, upstream: { url: 'https://up.example.com' } };
    writeFileSync(join(cwd, 'default.yaml'), renderConfigYaml(configSchema, { extraSchema, values }));
    const { config, sources } = loadConfig<{ upstream: { url: string; apiKey: string } }>({ cwd, configDir: '.', env: {}, extraSchema });
    expect(config.webServer.port).toBe(4321);
    expect(config.upstream).toEqual({ url: 'https://up.example.com', apiKey: '' });
    expect(sources['upstream.url']).toContain('default.yaml');
  });

  it('adds the consumer section after the framework keys and marks secrets', () => {
    const withExtra = renderConfigYaml(configSchema, { extraSchema, header: ['My server.'] });
    expect(withExtra.startsWith('# My server.\n\n')).toBe(true);
    expect(withExtra).toMatch(/# The upstream API\.\nupstream:\n/);
    expect(withExtra).toContain('  # string · env: UPSTREAM_API_KEY · secret\n  apiKey: ""');
    expect(withExtra.indexOf('upstream:')).toBeGreaterThan(withExtra.indexOf('logger:'));
    expect(() => renderConfigYaml(configSchema, { extraSchema: { logger: { type: 'object' } } })).toThrow(/framework key "logger"/);
  });

  it('keeps the values it is given, including keys outside the schema, so a re-render is stable', () => {
    const values = { name: 'on', mcp: { excludeTools: ['a', 'b'] }, custom: { nested: true } };
    const once = renderConfigYaml(configSchema, { values });
    const parsed = parseYaml(once) as Record<string, unknown>;
    expect(parsed.name).toBe('on'); // quoted: YAML would otherwise read a bare on as a string only by luck
    expect((parsed.mcp as { excludeTools: string[] }).excludeTools).toEqual(['a', 'b']);
    expect(parsed.custom).toEqual({ nested: true });
    expect(once).toContain('# Not described by the configuration schema.\ncustom: {"nested":true}');
    expect(renderConfigYaml(configSchema, { values: parsed })).toBe(once);
  });
});
