/** `fa-mcp tools measure` and `fa-mcp config validate | print | docs`, in process. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/cli-io.js';
import { configDocs, configPrint, configValidate } from '../../src/cli/commands/config.js';
import { toolsMeasure } from '../../src/cli/commands/tools-measure.js';
import { measureTools } from '../../src/cli/tool-weights.js';
import { configSchema, renderConfigReference } from '../../src/config/index.js';
import { fixture, FIXTURES, recordingIo } from './cli-helpers.js';

const server = fixture('server-data.mjs');

describe('measureTools', () => {
  it('weighs each entry in UTF-8 bytes, estimates tokens as chars / n, sorts heaviest first', () => {
    const tools = [
      { name: 'a', inputSchema: { type: 'object' } },
      { name: 'b', description: 'é'.repeat(100), inputSchema: { type: 'object' } },
    ];
    const m = measureTools(tools, 'Hi there', 4);
    expect(m.tools.map((t) => t.name)).toEqual(['b', 'a']);
    const b = JSON.stringify(tools[1]);
    expect(m.tools[0]).toMatchObject({ bytes: b.length + 100, tokens: Math.ceil(b.length / 4) });
    expect(m.total.bytes).toBe(Buffer.byteLength(JSON.stringify({ tools })));
    expect(m.instructions).toEqual({ chars: 8, bytes: 8, tokens: 2 });
    expect(m.overBudget).toEqual([]);
  });

  it('lists every exceeded budget', () => {
    const m = measureTools([{ name: 'big', description: 'x'.repeat(400) }], 'y'.repeat(30), 4, { totalTokens: 50, toolTokens: 60, instructionsChars: 20 });
    expect(m.overBudget).toEqual([
      expect.stringMatching(/^tools\/list: ~\d+ tokens > budget 50$/),
      expect.stringMatching(/^tool big: ~\d+ tokens > budget 60$/),
      'instructions: 30 characters > budget 20',
    ]);
  });
});

describe('tools measure', () => {
  it('prints a sorted table, the total and the instructions against mcp.instructions.budget', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => toolsMeasure(io, { server, charsPerToken: '4', cwd: FIXTURES, configDir: 'config-good' }))).toBe(0);
    const lines = io.stdout.split('\n');
    expect(lines[0]).toMatch(/^tool\s+bytes\s+~tokens\s+share$/);
    expect(lines[2]).toMatch(/^describe_things\s+\d+/);
    expect(lines[3]).toMatch(/^echo\s+\d+/);
    expect(io.stdout).toMatch(/tools\/list: 2 tools, \d+ bytes, ~\d+ tokens/);
    expect(io.stdout).toMatch(/instructions: 57 characters of 500 allowed \(mcp.instructions.budget\)/);
  });

  it('fails (exit 1) over a budget and says which', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => toolsMeasure(io, { server, charsPerToken: '4', budget: '50', toolBudget: '150' }))).toBe(1);
    expect(io.stderr).toMatch(/over budget:\n {2}tools\/list: ~\d+ tokens > budget 50\n {2}tool describe_things: ~\d+ tokens > budget 150/);
    const io2 = recordingIo();
    expect(await runCommand(io2, () => toolsMeasure(io2, { server, charsPerToken: '4', instructionsBudget: '20' }))).toBe(1);
    expect(io2.stderr).toContain('instructions: 57 characters > budget 20');
  });

  it('--json prints the measurement; a bad number is a usage error', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => toolsMeasure(io, { server, charsPerToken: '3', json: true }))).toBe(0);
    const m = JSON.parse(io.stdout) as { charsPerToken: number; tools: Array<{ name: string }> };
    expect(m.charsPerToken).toBe(3);
    expect(m.tools.map((t) => t.name)).toEqual(['describe_things', 'echo']);
    expect(await runCommand(io, () => toolsMeasure(io, { server, charsPerToken: '4', budget: 'many' }))).toBe(2);
    expect(io.stderr).toContain('--budget must be a positive number');
  });
});

describe('config validate', () => {
  it('passes on a valid folder and names its layers', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => configValidate(io, { cwd: FIXTURES, configDir: 'config-good', nodeEnv: 'production' }))).toBe(0);
    expect(io.stdout).toContain('configuration OK (NODE_ENV=production; layers: defaults, config-good/default.yaml, config-good/production.yaml');
  });

  it('fails (exit 1) listing every issue with its path and layer', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => configValidate(io, { cwd: FIXTURES, configDir: 'config-bad' }))).toBe(1);
    expect(io.stderr).toMatch(/mcp\.pagination\.pageSize: must be integer.*"lots".*config-bad\/default\.yaml/);
    expect(io.stderr).toMatch(/mcp\.transprtType: unknown key/);
  });
});

describe('config print', () => {
  it('shows every key with its value, secrets masked, and the layer that set it', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => configPrint(io, { cwd: FIXTURES, configDir: 'config-good', nodeEnv: 'production' }))).toBe(0);
    expect(io.stdout).toMatch(/^webServer\.port\s+= 8080\s+# config-good\/production\.yaml$/m);
    expect(io.stdout).toMatch(/^mcp\.pagination\.pageSize\s+= 25\s+# config-good\/default\.yaml$/m);
    expect(io.stdout).toMatch(/^mcp\.transportType\s+= "http"\s+# default$/m);
    expect(io.stdout).toMatch(/^consul\.agent\.token\s+= "\*\*\*"\s+# config-good\/default\.yaml$/m);
    expect(io.stdout).not.toContain('s3cr3t');
  });

  it('--json gives the masked config and the sources', async () => {
    const io = recordingIo();
    await configPrint(io, { cwd: FIXTURES, configDir: 'config-good', json: true });
    const printed = JSON.parse(io.stdout) as { config: { consul: { agent: { token: string } } }; sources: Record<string, string> };
    expect(printed.config.consul.agent.token).toBe('***');
    expect(printed.sources['webServer.port']).toBe('config-good/default.yaml');
  });

  it('an invalid configuration exits 1 with the issues', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => configPrint(io, { cwd: FIXTURES, configDir: 'config-bad' }))).toBe(1);
    expect(io.stderr).toContain('Invalid configuration');
  });
});

describe('config docs', () => {
  it('renders the reference page from the schema, writes it, and --check detects drift', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => configDocs(io, {}))).toBe(0);
    expect(io.stdout).toContain('# Configuration reference');
    expect(io.stdout).toContain('`mcp.instructions.budget`');
    expect(io.stdout).toBe(`${renderConfigReference(configSchema, { preamble: '> Generated from the configuration schema by `fa-mcp config docs`; do not edit by hand.' })}`);
    expect(await runCommand(io, () => configDocs(io, { out: 'ref.md' }))).toBe(0);
    expect(await runCommand(io, () => configDocs(io, { check: 'ref.md' }))).toBe(0);
    writeFileSync(join(io.cwd, 'ref.md'), `${readFileSync(join(io.cwd, 'ref.md'), 'utf8')}\nedited\n`);
    expect(await runCommand(io, () => configDocs(io, { check: 'ref.md' }))).toBe(1);
    expect(io.stderr).toContain('is out of date');
  });

  it('includes the keys of an extra schema', async () => {
    const io = recordingIo();
    writeFileSync(join(io.cwd, 'extra.json'), JSON.stringify({ search: { type: 'object', description: 'Search backend.', properties: { endpoint: { type: 'string', default: 'http://localhost:9200', 'x-env': ['SEARCH_URL'] } } } }));
    expect(await runCommand(io, () => configDocs(io, { extraSchema: 'extra.json' }))).toBe(0);
    expect(io.stdout).toContain('| `search.endpoint` | string | `"http://localhost:9200"` | `SEARCH_URL` |');
  });
});
