/** Snapshot diff: every rule of the versioning policy, the verdict, and the bump check. */
import { describe, expect, it } from 'vitest';
import { checkBump, bumpBetween, canonicalJson, diffSnapshots, parseSnapshot, renderDiff, SNAPSHOT_FORMAT, type ContractSnapshot } from '../../src/contract/index.js';

function snapshot(over: Partial<ContractSnapshot> = {}): ContractSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    protocolVersion: '2025-11-25',
    serverInfo: { name: 'demo', version: '1.2.0', title: 'Demo' },
    capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
    instructions: 'Use search first.',
    tools: [
      {
        name: 'search',
        description: 'Finds documents.',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        outputSchema: { type: 'object', properties: { hits: { type: 'array' }, total: { type: 'integer' } }, required: ['hits'] },
        annotations: { readOnlyHint: true },
      },
    ],
    prompts: [{ name: 'summarize', arguments: [{ name: 'topic', required: true }] }],
    resources: [{ uri: 'doc://readme', name: 'readme', mimeType: 'text/markdown' }],
    resourceTemplates: [{ uriTemplate: 'doc://{id}', name: 'doc' }],
    endpoints: [
      { method: 'POST', path: '/mcp' },
      { method: 'GET', path: '/health' },
    ],
    ...over,
  };
}
const tool = (s: ContractSnapshot) => s.tools[0] as Record<string, unknown>;
const diffOf = (mutate: (s: ContractSnapshot) => void) => {
  const after = structuredClone(snapshot());
  mutate(after);
  return diffSnapshots(snapshot(), after);
};

describe('diffSnapshots', () => {
  it('finds no change between a snapshot and itself, and ignores serverInfo.version', () => {
    expect(diffSnapshots(snapshot(), snapshot())).toEqual({ changes: [], verdict: 'none' });
    const d = diffOf((s) => (s.serverInfo.version = '9.9.9'));
    expect(d.verdict).toBe('none');
    expect(diffSnapshots(snapshot(), { ...snapshot(), serverInfo: { ...snapshot().serverInfo, version: '2' } }, { includeVersion: true }).verdict).toBe('patch');
  });

  it('removing a tool, prompt, resource, template or endpoint is MAJOR', () => {
    for (const [mutate, subject] of [
      [(s: ContractSnapshot) => (s.tools = []), 'tool "search"'],
      [(s: ContractSnapshot) => (s.prompts = []), 'prompt "summarize"'],
      [(s: ContractSnapshot) => (s.resources = []), 'resource "doc://readme"'],
      [(s: ContractSnapshot) => (s.resourceTemplates = []), 'resource template "doc://{id}"'],
      [(s: ContractSnapshot) => (s.endpoints = [{ method: 'POST', path: '/mcp' }]), 'endpoint GET /health'],
    ] as const) {
      const d = diffOf(mutate);
      expect(d.verdict, subject).toBe('major');
      expect(d.changes.map((c) => c.subject)).toContain(subject);
    }
  });

  it('a new tool, prompt or endpoint is MINOR', () => {
    const d = diffOf((s) => {
      s.tools.push({ name: 'fetch', inputSchema: { type: 'object' } });
      s.prompts.push({ name: 'explain' });
      s.endpoints?.push({ method: 'GET', path: '/metrics' });
    });
    expect(d.verdict).toBe('minor');
    expect(d.changes.map((c) => `${c.level} ${c.subject}`)).toEqual(['minor endpoint GET /metrics', 'minor prompt "explain"', 'minor tool "fetch"']);
  });

  it('a new required input field is MAJOR and says where', () => {
    const d = diffOf((s) => {
      const input = tool(s).inputSchema as { properties: Record<string, unknown>; required: string[] };
      input.properties.lang = { type: 'string' };
      input.required.push('lang');
    });
    expect(d.changes).toEqual([{ level: 'major', subject: 'tool "search"', path: 'inputSchema.properties.lang', message: 'new required input field "lang"' }]);
  });

  it('a removed output field is MAJOR, removing the whole output schema too', () => {
    expect(diffOf((s) => delete (tool(s).outputSchema as { properties: Record<string, unknown> }).properties.total).verdict).toBe('major');
    expect(diffOf((s) => delete tool(s).outputSchema).changes[0]).toMatchObject({ level: 'major', path: 'outputSchema' });
  });

  it('description-only changes are PATCH, on tools, prompts, resources and instructions', () => {
    const d = diffOf((s) => {
      tool(s).description = 'Finds documents fast.';
      (s.prompts[0] as Record<string, unknown>).description = 'Summarizes.';
      (s.resources[0] as Record<string, unknown>).description = 'The readme.';
      s.instructions = 'Use search first, then fetch.';
      s.serverInfo.title = 'Demo server';
    });
    expect(d.verdict).toBe('patch');
    expect(d.changes).toHaveLength(5);
  });

  it('behaviour hints, task support, mime types, prompt arguments and capabilities', () => {
    expect(diffOf((s) => ((tool(s).annotations as Record<string, unknown>).destructiveHint = true)).verdict).toBe('minor');
    expect(diffOf((s) => (tool(s).execution = { taskSupport: 'required' })).verdict).toBe('major');
    expect(diffOf((s) => ((s.resources[0] as Record<string, unknown>).mimeType = 'text/plain')).verdict).toBe('major');
    expect(diffOf((s) => (s.prompts[0] = { name: 'summarize', arguments: [{ name: 'topic', required: true }, { name: 'tone' }] })).verdict).toBe('minor');
    expect(diffOf((s) => (s.prompts[0] = { name: 'summarize', arguments: [{ name: 'topic', required: true }, { name: 'tone', required: true }] })).verdict).toBe('major');
    expect(diffOf((s) => (s.prompts[0] = { name: 'summarize', arguments: [] })).verdict).toBe('major');
    expect(diffOf((s) => delete s.capabilities.prompts).verdict).toBe('major');
    expect(diffOf((s) => (s.capabilities.completions = {})).verdict).toBe('minor');
  });

  it('lists changes MAJOR first and renders a readable report', () => {
    const d = diffOf((s) => {
      tool(s).description = 'x';
      s.tools.push({ name: 'fetch', inputSchema: { type: 'object' } });
      s.resources = [];
    });
    expect(d.changes.map((c) => c.level)).toEqual(['major', 'minor', 'patch']);
    expect(renderDiff(d)).toBe(
      [
        'Verdict: MAJOR (3 changes: 1 major, 1 minor, 1 patch)',
        'MAJOR  resource "doc://readme": resource removed',
        'MINOR  tool "fetch": new tool',
        'PATCH  tool "search" description: description changed',
        '',
      ].join('\n'),
    );
  });

  it('skips endpoints when one side has none (a snapshot taken without HTTP)', () => {
    expect(diffOf((s) => delete s.endpoints).verdict).toBe('none');
  });
});

describe('checkBump', () => {
  it('accepts a bump at least as large as the changes need', () => {
    expect(checkBump('1.2.0', '2.0.0', 'major').ok).toBe(true);
    expect(checkBump('1.2.0', '1.3.0', 'minor').ok).toBe(true);
    expect(checkBump('1.2.0', '1.3.0', 'patch').ok).toBe(true);
    expect(checkBump('1.2.0', '1.2.0', 'none').ok).toBe(true);
  });

  it('refuses a bump that is too small, and names the smallest right version', () => {
    const c = checkBump('1.2.3', '1.3.0', 'major');
    expect(c).toMatchObject({ ok: false, actual: 'minor', required: 'major', suggested: '2.0.0' });
    expect(c.message).toContain('release 2.0.0 or later');
    expect(checkBump('1.2.3', '1.2.4', 'minor')).toMatchObject({ ok: false, suggested: '1.3.0' });
    expect(checkBump('1.2.3', '1.2.3', 'patch')).toMatchObject({ ok: false, actual: 'none', suggested: '1.2.4' });
  });

  it('reads 0.x as npm does: the minor number is the breaking one', () => {
    expect(checkBump('0.4.1', '0.5.0', 'major').ok).toBe(true);
    expect(checkBump('0.4.1', '0.4.2', 'major')).toMatchObject({ ok: false, suggested: '0.5.0' });
    expect(checkBump('0.4.1', '0.4.2', 'minor').ok).toBe(true);
  });

  it('rejects versions that go backwards or are not semver', () => {
    expect(() => bumpBetween('1.2.0', '1.1.9')).toThrow(/older/);
    expect(() => bumpBetween('1.2', '1.3.0')).toThrow(/not a semantic version/);
    expect(bumpBetween('2.0.0-rc.1', '2.0.0')).toBe('patch');
    expect(bumpBetween('v1.0.0', '1.0.1')).toBe('patch');
  });
});

describe('snapshot files', () => {
  it('canonical JSON sorts keys at every depth and parses back', () => {
    const text = canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } });
    expect(text).toBe('{\n  "a": {\n    "d": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}\n');
    expect(parseSnapshot(canonicalJson(snapshot()))).toEqual(snapshot());
  });

  it('refuses files that are not snapshots', () => {
    expect(() => parseSnapshot('{', 'x.json')).toThrow(/x.json: not JSON/);
    expect(() => parseSnapshot('{"tools":[]}')).toThrow(/not a contract snapshot/);
    expect(() => parseSnapshot(JSON.stringify({ format: SNAPSHOT_FORMAT, tools: {} }))).toThrow(/"tools" must be an array/);
  });
});
