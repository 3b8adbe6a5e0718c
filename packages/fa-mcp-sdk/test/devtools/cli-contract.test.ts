/**
 * `fa-mcp contract snapshot | check | diff` in process, against the fixture server (and, when the
 * library is built, against its start file spawned in stdio mode).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/cli-io.js';
import { contractCheck, contractDiff, contractSnapshot } from '../../src/cli/commands/contract.js';
import { canonicalJson, parseSnapshot } from '../../src/contract/index.js';
import { fixture, recordingIo } from './cli-helpers.js';
import { sdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';

const server = fixture('server-data.mjs');
const changed = fixture('server-data-changed.mjs');

describe('contract snapshot', () => {
  it("writes the whole surface in canonical form, with the HTTP routes", async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => contractSnapshot(io, { server }))).toBe(0);
    const text = readFileSync(join(io.cwd, 'contract.json'), 'utf8');
    const snap = parseSnapshot(text);
    expect(text).toBe(canonicalJson(snap));
    expect(snap.serverInfo).toMatchObject({ name: 'devtools-fixture', version: '1.0.0', title: 'Devtools fixture' });
    expect(snap.protocolVersion).toBe('2025-11-25');
    expect(snap.instructions).toContain('Call echo');
    expect(snap.capabilities).toHaveProperty('tools');
    expect(snap.tools.map((t) => t.name)).toEqual(['describe_things', 'echo']);
    expect(snap.tools.find((t) => t.name === 'echo')).toMatchObject({ annotations: { readOnlyHint: true }, outputSchema: { required: ['echoed'] } });
    expect(snap.prompts.map((p) => p.name)).toContain('greet');
    expect(snap.resources.map((r) => r.uri)).toContain('fixture://readme');
    expect(snap.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['fixture://items/{id}']);
    expect(snap.endpoints).toEqual(expect.arrayContaining([{ method: 'POST', path: '/mcp' }, { method: 'GET', path: '/health' }, { method: 'GET', path: '/sse' }]));
    expect(io.stdout).toMatch(/wrote .*contract\.json: 2 tools, \d+ prompts/);
  });

  it('is stable: two snapshots of the same server are byte-identical', async () => {
    const io = recordingIo();
    await contractSnapshot(io, { server, out: 'a.json' });
    await contractSnapshot(io, { server, out: 'b.json' });
    expect(readFileSync(join(io.cwd, 'a.json'), 'utf8')).toBe(readFileSync(join(io.cwd, 'b.json'), 'utf8'));
  });

  it('--no-endpoints leaves the HTTP routes out; the 2026 era is read too', async () => {
    const io = recordingIo();
    await contractSnapshot(io, { server, out: 'm.json', endpoints: false, era: '2026' });
    const snap = parseSnapshot(readFileSync(join(io.cwd, 'm.json'), 'utf8'));
    expect(snap.endpoints).toBeUndefined();
    expect(snap.protocolVersion).toBe('2026-07-28');
    expect(snap.tools).toHaveLength(2);
  });

  it('says what is missing when no server is named, with exit code 2', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => contractSnapshot(io, {}))).toBe(2);
    expect(io.stderr).toContain('say which server to read: --server');
  });
});

describe('contract check', () => {
  it('passes when the server answers as the file says', async () => {
    const io = recordingIo();
    await contractSnapshot(io, { server });
    expect(await runCommand(io, () => contractCheck(io, { server }))).toBe(0);
    expect(io.stdout).toContain('contract OK');
  });

  it('fails with a readable, classified diff when the server changed', async () => {
    const io = recordingIo();
    await contractSnapshot(io, { server });
    expect(await runCommand(io, () => contractCheck(io, { server: changed }))).toBe(1);
    expect(io.stderr).toContain('does not answer as');
    expect(io.stderr).toContain('Verdict: MAJOR');
    expect(io.stderr).toContain('MAJOR  tool "echo" inputSchema.properties.lang: new required input field "lang"');
    expect(io.stderr).toContain('MINOR  tool "ping": new tool');
    expect(io.stderr).toContain('PATCH  tool "describe_things" description: description changed');
  });

  it('fails when a file entry was edited by hand', async () => {
    const io = recordingIo();
    await contractSnapshot(io, { server });
    const file = join(io.cwd, 'contract.json');
    const snap = parseSnapshot(readFileSync(file, 'utf8'));
    snap.tools = snap.tools.filter((t) => t.name !== 'echo');
    writeFileSync(file, canonicalJson(snap));
    expect(await runCommand(io, () => contractCheck(io, { server }))).toBe(1);
    expect(io.stderr).toContain('MINOR  tool "echo": new tool');
  });

  it('exit code 2 when the file is missing or not a snapshot', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => contractCheck(io, { server, file: 'nope.json' }))).toBe(2);
    expect(io.stderr).toContain('cannot read');
    writeFileSync(join(io.cwd, 'bad.json'), '{"tools": []}');
    expect(await runCommand(io, () => contractCheck(io, { server, file: 'bad.json' }))).toBe(2);
    expect(io.stderr).toContain('not a contract snapshot');
  });
});

describe('contract diff', () => {
  async function twoSnapshots() {
    const io = recordingIo();
    await contractSnapshot(io, { server, out: 'old.json' });
    await contractSnapshot(io, { server: changed, out: 'new.json' });
    io.stdout = '';
    return io;
  }

  it('prints the verdict and every reason', async () => {
    const io = await twoSnapshots();
    expect(await runCommand(io, () => contractDiff(io, 'old.json', 'new.json', {}))).toBe(0);
    expect(io.stdout.split('\n')[0]).toBe('Verdict: MAJOR (3 changes: 1 major, 1 minor, 1 patch)');
  });

  it('fails when the version bump is smaller than the verdict, and passes with a major bump', async () => {
    const io = await twoSnapshots();
    expect(await runCommand(io, () => contractDiff(io, 'old.json', 'new.json', { currentVersion: '1.0.0', nextVersion: '1.1.0' }))).toBe(1);
    expect(io.stdout).toContain('FAIL: 1.0.0 -> 1.1.0 is a MINOR bump, but the changes need MAJOR: release 2.0.0 or later');
    expect(await runCommand(io, () => contractDiff(io, 'old.json', 'new.json', { currentVersion: '1.0.0', nextVersion: '2.0.0' }))).toBe(0);
  });

  it('reads the current version from OLD when only --next-version is given; --json for machines', async () => {
    const io = await twoSnapshots();
    expect(await runCommand(io, () => contractDiff(io, 'old.json', 'new.json', { nextVersion: '1.0.1', json: true }))).toBe(1);
    const report = JSON.parse(io.stdout) as { verdict: string; changes: unknown[]; bump: { ok: boolean; suggested: string } };
    expect(report).toMatchObject({ verdict: 'major', bump: { ok: false, suggested: '2.0.0' } });
    expect(report.changes).toHaveLength(3);
  });

  it('refuses a next version older than the current one (exit 2)', async () => {
    const io = await twoSnapshots();
    expect(await runCommand(io, () => contractDiff(io, 'old.json', 'new.json', { currentVersion: '2.0.0', nextVersion: '1.9.0' }))).toBe(2);
    expect(io.stderr).toContain('older than 2.0.0');
  });
});

describe.skipIf(!sdkBuildIsCurrent())('contract snapshot --start (built library)', { timeout: 90_000 }, () => {
  it("reads a start file's server over stdio; no HTTP routes in that mode", async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => contractSnapshot(io, { start: fixture('start.mjs'), out: 'start.json' }))).toBe(0);
    const snap = parseSnapshot(readFileSync(join(io.cwd, 'start.json'), 'utf8'));
    expect(snap.tools.map((t) => t.name)).toEqual(['describe_things', 'echo']);
    expect(snap.endpoints).toBeUndefined();
    // the same surface as the in-process read, apart from the routes
    // (cwd: the start file's folder, whose package.json both reads then see)
    await contractSnapshot(io, { server, out: 'module.json', endpoints: false, cwd: fixture('.') });
    expect(readFileSync(join(io.cwd, 'start.json'), 'utf8')).toBe(readFileSync(join(io.cwd, 'module.json'), 'utf8'));
  });
});

describe('the fa-mcp program', () => {
  it('routes contract, tools and config commands and returns their exit codes', async () => {
    const { runCli } = await import('../../src/cli/program.js');
    const io = recordingIo();
    const run = (...args: string[]) => runCli(['node', 'fa-mcp', ...args], () => io);
    expect(await run('contract', 'snapshot', '--server', server, '--out', 'old.json', '--no-endpoints')).toBe(0);
    expect(await run('contract', 'snapshot', '--server', changed, '--out', 'new.json', '--no-endpoints')).toBe(0);
    expect(await run('contract', 'check', '--server', server, '--file', 'old.json')).toBe(0);
    expect(await run('contract', 'check', '--server', changed, '--file', 'old.json')).toBe(1);
    expect(await run('contract', 'diff', 'old.json', 'new.json', '--next-version', '1.1.0')).toBe(1);
    expect(await run('contract', 'diff', 'old.json', 'new.json', '--next-version', '2.0.0')).toBe(0);
    expect(await run('tools', 'measure', '--server', server, '--budget', '10')).toBe(1);
    expect(await run('config', 'validate', '--cwd', fixture('.'), '--config-dir', 'config-bad')).toBe(1);
    expect(await run('contract', 'check', '--start', 'a.mjs', '--server', server, '--file', 'old.json')).toBe(2);
    expect(io.stderr).toContain('give either --server or --start, not both');
  });
});
