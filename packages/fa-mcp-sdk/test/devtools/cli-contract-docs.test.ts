/**
 * `fa-mcp contract docs`: writes what the fixture server answers between the
 * page's markers (prose around them kept), and `--check` passes on that page
 * and fails, with the differing lines, once the server answers otherwise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/cli-io.js';
import { contractDocs } from '../../src/cli/commands/contract-docs.js';
import { SURFACE_BEGIN, SURFACE_END } from '../../src/contract/index.js';
import { checkSurfacePage, loadServerModule, renderSurfacePage, writeSurfacePage } from '../../src/testing/index.js';
import { fixture, recordingIo } from './cli-helpers.js';

const server = fixture('server-data.mjs');
const changed = fixture('server-data-changed.mjs');

describe('contract docs', () => {
  it('writes the initialize result, the instructions against the budget, prompts, tools with schemas and annotations, templates', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => contractDocs(io, { server, out: 'tools.md', instructionsBudget: '2048' }))).toBe(0);
    const page = readFileSync(join(io.cwd, 'tools.md'), 'utf8');
    expect(page).toContain(SURFACE_BEGIN);
    expect(page).toContain(SURFACE_END);
    expect(page).toContain('"protocolVersion": "2025-11-25"');
    expect(page).toContain('"name": "devtools-fixture"');
    expect(page).toMatch(/\d+ characters of the 2,048 a client keeps/);
    expect(page).toContain('### `echo`');
    expect(page).toContain('"readOnlyHint": true');
    expect(page).toContain('"inputSchema"');
    expect(page).toMatch(/- `greet`/);
    expect(page).toContain('- `fixture://items/{id}`');
  });

  it('keeps the prose around the markers and --check passes on what it wrote', async () => {
    const io = recordingIo();
    writeFileSync(join(io.cwd, 'tools.md'), `# Our tools\n\nWritten by hand.\n\n${SURFACE_BEGIN}\nstale\n${SURFACE_END}\n\nMore prose.\n`);
    await contractDocs(io, { server, out: 'tools.md' });
    const page = readFileSync(join(io.cwd, 'tools.md'), 'utf8');
    expect(page.startsWith('# Our tools\n\nWritten by hand.\n\n')).toBe(true);
    expect(page.endsWith('\nMore prose.\n')).toBe(true);
    expect(page).not.toContain('stale');
    const check = recordingIo(io.cwd);
    expect(await runCommand(check, () => contractDocs(check, { server, out: 'tools.md', check: true }))).toBe(0);
    expect(check.stdout).toContain('surface docs OK');
    expect(readFileSync(join(io.cwd, 'tools.md'), 'utf8')).toBe(page);
  });

  it('--check fails (exit 1) with the differing lines when the server answers otherwise, and on a page without markers', async () => {
    const io = recordingIo();
    await contractDocs(io, { server, out: 'tools.md' });
    const check = recordingIo(io.cwd);
    expect(await runCommand(check, () => contractDocs(check, { server: changed, out: 'tools.md', check: true }))).toBe(1);
    expect(check.stderr).toContain('does not say what the server answers');
    expect(check.stderr).toMatch(/\n {2}[-+] /);
    writeFileSync(join(io.cwd, 'bare.md'), '# Nothing generated\n');
    const bare = recordingIo(io.cwd);
    expect(await runCommand(bare, () => contractDocs(bare, { server, out: 'bare.md', check: true }))).toBe(1);
    expect(bare.stderr).toContain('no markers');
  });

  it('fa-mcp-sdk/testing checks and writes the same page in process, with the message --check prints', async () => {
    const io = recordingIo();
    await contractDocs(io, { server, out: 'tools.md' });
    const file = join(io.cwd, 'tools.md');
    const data = (await loadServerModule(server, { cwd: io.cwd })).data;
    const ok = await checkSurfacePage(data, file, { cwd: io.cwd });
    expect(ok.ok, ok.message).toBe(true);

    const drifted = (await loadServerModule(changed, { cwd: io.cwd })).data;
    const result = await checkSurfacePage(drifted, file, { cwd: io.cwd, regenerate: 'npm run docs:tools' });
    expect(result.ok).toBe(false);
    expect(result.onlyInPage.length + result.onlyInServer.length).toBeGreaterThan(0);
    expect(result.message).toContain('does not say what the server answers');
    expect(result.message).toContain('run `npm run docs:tools`');
    const check = recordingIo(io.cwd);
    await runCommand(check, () => contractDocs(check, { server: changed, out: 'tools.md', check: true }));
    expect(check.stderr).toContain(result.message.replace('`npm run docs:tools`', '`fa-mcp contract docs`'));

    const missing = await checkSurfacePage(data, join(io.cwd, 'none.md'), { cwd: io.cwd });
    expect(missing).toMatchObject({ ok: false });
    expect(missing.message).toContain('no such file');

    await writeSurfacePage(drifted, join(io.cwd, 'new.md'), { cwd: io.cwd });
    const after = recordingIo(io.cwd);
    expect(await runCommand(after, () => contractDocs(after, { server: changed, out: 'new.md', check: true }))).toBe(0);
    expect(await renderSurfacePage(data, { cwd: io.cwd, instructionsBudget: 100 })).toMatch(/characters of the 100 a client keeps/);
  });
});
