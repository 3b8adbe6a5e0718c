/**
 * The packed create-fa-mcp carries its README.md and LICENSE (the repository's MIT licence, the
 * same text as the library's), next to the built CLI.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PKG_ROOT, REPO_ROOT, SDK_ROOT, tempDir } from './helpers.js';
import { assertBuildIsCurrent, runOk } from './run.js';

const tmp = tempDir('create-fa-mcp-pack-');
afterAll(tmp.cleanup);

it('the tarball has README.md, LICENSE and the CLI; the licence is the repository\'s', async () => {
  assertBuildIsCurrent();
  await runOk('pnpm', ['pack', '--pack-destination', tmp.dir], { cwd: PKG_ROOT, timeoutMs: 120_000 });
  const tarball = join(tmp.dir, readdirSync(tmp.dir).find((f) => f.endsWith('.tgz')) as string);
  const files = (await runOk('tar', ['tzf', tarball], { timeoutMs: 30_000 })).stdout.split('\n');
  expect(files, 'add README.md and LICENSE to packages/create-fa-mcp and to "files" in its package.json').toEqual(
    expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/dist/index.js']),
  );
  const licence = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
  expect(licence).toMatch(/^MIT License/);
  for (const copy of [join(PKG_ROOT, 'LICENSE'), join(SDK_ROOT, 'LICENSE')]) {
    expect(readFileSync(copy, 'utf8'), `${copy} must be a copy of the repository's LICENSE`).toBe(licence);
  }
}, 180_000);
