#!/usr/bin/env node
// Build step of create-fa-mcp (after tsup): copies the project template (cli-template/) and the
// SDK documentation (FA-MCP-SDK-DOC/) into dist/template/, published with the package. Files npm leaves out of a package (.gitignore) are stored as _gitignore;
// the scaffolder restores their names.
import { cpSync, existsSync, renameSync, rmSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(pkgRoot, '..', '..');
const out = join(pkgRoot, 'dist', 'template');
const SKIP = new Set(['node_modules', 'dist', 'coverage', '.env', 'local.yaml', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']);

function storeNames(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) storeNames(full);
    else if (name === '.gitignore') renameSync(full, join(dir, '_gitignore'));
  }
}

for (const source of ['cli-template', 'FA-MCP-SDK-DOC']) {
  if (!existsSync(join(repoRoot, source))) throw new Error(`bundle-template: ${source}/ not found at ${repoRoot}`);
}
rmSync(out, { recursive: true, force: true });
cpSync(join(repoRoot, 'cli-template'), join(out, 'project'), {
  recursive: true,
  filter: (src) => !SKIP.has(basename(src)),
});
storeNames(join(out, 'project'));
cpSync(join(repoRoot, 'FA-MCP-SDK-DOC'), join(out, 'FA-MCP-SDK-DOC'), { recursive: true });
console.log(`bundle-template: wrote ${out}`);
