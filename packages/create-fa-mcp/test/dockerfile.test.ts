/** The template's Dockerfile, checked for shape (no Docker engine here: the image is not built). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffold } from '../src/scaffold.js';
import { dockerfileProblems, parseDockerfile, type DockerInstruction } from './dockerfile-shape.js';
import { DOCS_DIR, sampleAnswers, TEMPLATE_DIR, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(tmp.cleanup);

describe.each(['npm', 'pnpm', 'yarn'] as const)('Dockerfile of a project using %s', (packageManager) => {
  let dir: string;
  beforeAll(async () => {
    dir = join(tmp.dir, packageManager);
    await scaffold({ targetDir: dir, templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR, answers: sampleAnswers({ packageManager }) });
    // The lockfile exists once the project is installed (the end-to-end test checks it for real).
    const lockfile = { npm: 'package-lock.json', pnpm: 'pnpm-lock.yaml', yarn: 'yarn.lock' }[packageManager];
    writeFileSync(join(dir, lockfile), '');
  });

  it('is multi-stage, non-root, health-checked, and copies only files that exist', () => {
    expect(dockerfileProblems(dir)).toEqual([]);
    const instructions = parseDockerfile(readFileSync(join(dir, 'Dockerfile'), 'utf8'));
    expect(instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args)).toEqual(['node:24-alpine AS build', 'node:24-alpine AS runtime']);
    expect(instructions.find((i) => i.keyword === 'USER')?.args).toBe('node');
    expect(instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args).toContain('http://127.0.0.1:${PORT}/health');
    expect(instructions.find((i) => i.keyword === 'EXPOSE')?.args).toBe('4123');
  });

  it('keeps secrets and local settings out of the build context', () => {
    const ignored = readFileSync(join(dir, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.env*', '!.env.example', 'config/local.yaml', 'node_modules', 'dist']));
  });

  it('copies vendor/ (packages installed from a file: vendor/fa-mcp-sdk-*.tgz) before the install of each stage', () => {
    const instructions = parseDockerfile(readFileSync(join(dir, 'Dockerfile'), 'utf8'));
    const stages = instructions.reduce<DockerInstruction[][]>((all, i) => (i.keyword === 'FROM' ? [...all, [i]] : (all[all.length - 1]?.push(i), all)), []);
    for (const stage of stages) {
      const install = stage.findIndex((i) => i.keyword === 'RUN' && i.args.startsWith(packageManager) && /\b(ci|install)\b/.test(i.args) && !i.args.includes('--global'));
      expect(install, stage[0]?.args).toBeGreaterThan(0);
      expect(stage.slice(0, install).filter((i) => i.keyword === 'COPY').map((i) => i.args), stage[0]?.args).toContain('vendor ./vendor');
    }
    const ignored = readFileSync(join(dir, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    expect(ignored.filter((l) => /^(vendor|\*\.tgz|\*\*)/.test(l))).toEqual([]);
  });
});

describe('dockerfileProblems', () => {
  it('reports a root user, a missing healthcheck, a single stage and a missing COPY source', () => {
    const dir = join(tmp.dir, 'bad');
    mkdirSync(dir);
    writeFileSync(join(dir, 'Dockerfile'), 'FROM node:20\nCOPY missing.json ./\nUSER root\nCMD ["node"]\n');
    expect(dockerfileProblems(dir)).toEqual([
      'expected a multi-stage build, found 1 FROM',
      'every stage needs a name (FROM … AS name)',
      'the final stage runs as root',
      'the final stage has no HEALTHCHECK calling /health',
      'COPY source missing.json does not exist',
    ]);
  });
});
