/**
 * Generating a project from cli-template: every placeholder filled, every file in place, secrets
 * only in .env (git- and docker-ignored), an existing folder respected, and an abort or a failure
 * leaving nothing behind.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { listTemplateFiles } from '../src/template-files.js';
import { DOCS_FOLDER, scaffold, ScaffoldAbortedError } from '../src/scaffold.js';
import { TargetDirError } from '../src/target-dir.js';
import { brokenLinks } from './md-links.js';
import { checkHaproxyConfig, findHaproxy } from '../../../scripts/cluster/cluster.mjs';
import { serviceAvailable } from '../../../scripts/test-kit/ci-checks.mjs';
import { DOCS_DIR, listFiles, readText, sampleAnswers, SDK_ROOT, TEMPLATE_DIR, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(tmp.cleanup);
const base = { templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR };

/** `^x.y.z` accepts `version` (caret semantics, 0.x included). */
function caretAccepts(range: string, version: string): boolean {
  const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
  const v = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m || !v) return false;
  const [r0, r1, r2] = m.slice(1).map(Number) as [number, number, number];
  const [v0, v1, v2] = v.slice(1).map(Number) as [number, number, number];
  if (r0 !== v0) return false;
  if (r0 === 0) return v1 === r1 && v2 >= r2;
  return v1 > r1 || (v1 === r1 && v2 >= r2);
}

describe('scaffold', async () => {
  const answers = sampleAnswers({ auth: true });
  const dir = join(tmp.dir, 'weather-mcp');
  const result = await scaffold({ ...base, targetDir: dir, answers, now: new Date('2026-03-04T10:00:00Z') });
  const files = listFiles(dir);

  it('writes every template file (dotfiles restored) and the SDK documentation', () => {
    for (const file of listTemplateFiles(TEMPLATE_DIR)) expect(files, file.target).toContain(file.target);
    // Recursive: the docs carry an images/ folder (the bench chart page 07 shows).
    for (const doc of listTemplateFiles(DOCS_DIR, DOCS_FOLDER)) expect(files).toContain(doc.target);
    expect(files).toContain(`${DOCS_FOLDER}/images/bench-throughput.svg`);
    expect(files).toEqual(expect.arrayContaining(['.gitignore', '.dockerignore', '.env', '.env.example', '.github/workflows/ci.yml', '.gitlab-ci.yml']));
    expect(result.files).toEqual(files);
  });

  it('leaves no {{ in any generated file', () => {
    const leftovers = files.filter((f) => readText(dir, f).includes('{{'));
    expect(leftovers).toEqual([]);
  });

  it('fills the answers in, escaped for each file type', () => {
    const pkg = JSON.parse(readText(dir, 'package.json')) as { name: string; description: string; author: string; dependencies: Record<string, string> };
    expect(pkg).toMatchObject({ name: 'weather-mcp', description: answers.description, author: answers.author });
    expect(readText(dir, 'src/server-info.ts')).toContain(`export const PRODUCT_NAME = ${JSON.stringify(answers.productName)};`);
    const config = parseYaml(readText(dir, 'config/default.yaml')) as { webServer: { port: number; auth?: { enabled: boolean } }; mcp: { transportType: string } };
    expect(config.webServer.port).toBe(4123);
    expect(config.mcp.transportType).toBe('http');
    if (config.webServer.auth) expect(config.webServer.auth.enabled).toBe(true);
    expect(readText(dir, 'CHANGELOG.md')).toContain('## [0.1.0] - 2026-03-04');
    expect(readText(dir, 'Dockerfile')).toContain('EXPOSE 4123');
    expect(readText(dir, '.gitlab-ci.yml')).toContain('http://127.0.0.1:4123/health');
    for (const f of ['.github/workflows/ci.yml', 'deploy/docker/docker-compose.yml', 'deploy/cluster/docker-compose.yml', '.gitlab-ci.yml']) expect(() => parseYaml(readText(dir, f)), f).not.toThrow();
  });

  it('deploy/cluster: three replicas on PostgreSQL behind HAProxy, whose configuration haproxy -c accepts', () => {
    const compose = parseYaml(readText(dir, 'deploy/cluster/docker-compose.yml')) as {
      services: { app: { deploy: { replicas: number }; environment: Record<string, string> }; lb: { image: string; ports: string[] }; postgres: unknown };
    };
    expect(compose.services.app.deploy.replicas).toBe(3);
    expect(compose.services.app.environment).toMatchObject({ MCP_SESSIONS_STORE: 'postgres', MCP_TASKS_STORE: 'postgres', MCP_NOTIFICATIONS_BUS: 'postgres', PORT: '4123' });
    expect(compose.services.lb.image).toMatch(/^haproxy:/);
    const cfg = readText(dir, 'deploy/cluster/haproxy.cfg');
    expect(cfg).toContain('server-template app 3 app:4123 check');
    expect(cfg).toContain('option httpchk GET /ready');
    const bin = findHaproxy();
    if (!serviceAvailable(bin !== undefined, 'haproxy', 'run scripts/ci/install-haproxy.sh as root')) return;
    const checked = checkHaproxyConfig(cfg, bin);
    expect(checked.ok, checked.output).toBe(true);
  });

  it('depends on fa-mcp-sdk by a range that accepts the SDK version it was made with', () => {
    const range = (JSON.parse(readText(dir, 'package.json')) as { dependencies: Record<string, string> }).dependencies['fa-mcp-sdk'] as string;
    const sdkVersion = (JSON.parse(readFileSync(join(SDK_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(caretAccepts(range, sdkVersion), `${range} vs ${sdkVersion}`).toBe(true);
  });

  it('writes secrets to .env only, which git and docker ignore', () => {
    expect(result.secrets.length).toBeGreaterThanOrEqual(1);
    for (const secret of result.secrets) {
      const holders = files.filter((f) => readText(dir, f).includes(secret));
      expect(holders).toEqual(['.env']);
    }
    const gitignore = readText(dir, '.gitignore').split('\n');
    expect(gitignore).toEqual(expect.arrayContaining(['.env', 'config/local.yaml']));
    expect(readText(dir, '.dockerignore').split('\n')).toEqual(expect.arrayContaining(['.env*', 'config/local.yaml']));
  });

  it('runs CI and the image on Node 24, and GitLab caches npm\'s cache, not node_modules', () => {
    const gitlab = parseYaml(readText(dir, '.gitlab-ci.yml')) as Record<string, { image?: string; before_script?: string[]; cache?: { paths: string[] } }>;
    expect(gitlab['.node']?.image).toBe('node:24-alpine');
    expect(gitlab['.node']?.cache?.paths).toEqual(['.npm/']);
    expect(gitlab['.node']?.before_script).toContain('npm ci --cache .npm --prefer-offline');
    const github = parseYaml(readText(dir, '.github/workflows/ci.yml')) as { jobs: { check: { steps: Array<{ with?: { 'node-version'?: number } }> } } };
    expect(github.jobs.check.steps.map((step) => step.with?.['node-version']).filter(Boolean)).toEqual([24]);
    expect(readText(dir, 'Dockerfile').match(/^FROM \S+/gm)).toEqual(['FROM node:24-alpine', 'FROM node:24-alpine']);
    expect(readText(dir, '.gitignore').split('\n')).toContain('.npm/');
  });

  it('writes .env readable by its owner only (0600)', () => {
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'package.json')).mode & 0o077).not.toBe(0); // the others keep the usual permissions
  });

  it('gives every project its own secrets', async () => {
    const other = await scaffold({ ...base, targetDir: join(tmp.dir, 'other'), answers });
    expect(other.secrets.filter((s) => result.secrets.includes(s))).toEqual([]);
  });

  it('lists in AGENTS.md every documentation page, and only pages that exist', () => {
    const agents = readText(dir, 'AGENTS.md');
    const pages = [...agents.matchAll(/`(\d\d[-\w]*\.md)`/g)].map((m) => m[1] as string);
    for (const page of pages) expect(files, page).toContain(`${DOCS_FOLDER}/${page}`);
    const docs = files.filter((f) => f.startsWith(`${DOCS_FOLDER}/`) && f.endsWith('.md')).map((f) => f.slice(DOCS_FOLDER.length + 1));
    const unlisted = docs.filter((page) => !page.startsWith('00-') && !pages.includes(page));
    expect(unlisted, 'add a row for each to the documentation table of cli-template/AGENTS.md').toEqual([]);
  });

  it('has no broken relative link in any Markdown file (the docs\' links into the repository are text)', () => {
    expect(brokenLinks(dir, files.filter((f) => f.endsWith('.md')))).toEqual([]);
    expect(readText(dir, `${DOCS_FOLDER}/09-database.md`)).toContain('`examples/pgvector-search` (in the fa-mcp-sdk repository)');
  });
});

describe('scaffold refuses and cleans up', () => {
  it('refuses a non-empty folder without force, and writes nothing', async () => {
    const dir = join(tmp.dir, 'busy');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    await expect(scaffold({ ...base, targetDir: dir, answers: sampleAnswers() })).rejects.toThrow(TargetDirError);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    expect(readdirSync(tmp.dir).filter((n) => n.includes('create-fa-mcp'))).toEqual([]);
  });

  it('with force, writes the template files and keeps the folder\'s other files', async () => {
    const dir = join(tmp.dir, 'forced');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeFileSync(join(dir, 'src', 'legacy.ts'), 'old');
    writeFileSync(join(dir, 'README.md'), 'old readme');
    await scaffold({ ...base, targetDir: dir, answers: sampleAnswers(), force: true });
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, 'src', 'legacy.ts'), 'utf8')).toBe('old');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('# Weather MCP');
    expect(existsSync(join(dir, 'src', 'start.ts'))).toBe(true);
  });

  it('an abort mid-way leaves neither the target nor the temporary folder', async () => {
    const parent = join(tmp.dir, 'abort');
    mkdirSync(parent);
    const controller = new AbortController();
    const pending = scaffold({ ...base, targetDir: join(parent, 'never'), answers: sampleAnswers(), signal: controller.signal });
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toThrow(ScaffoldAbortedError);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a failing template leaves neither the target nor the temporary folder', async () => {
    const parent = join(tmp.dir, 'broken');
    const template = join(parent, 'template');
    mkdirSync(join(template, 'src'), { recursive: true });
    writeFileSync(join(template, 'a.txt'), 'fine');
    writeFileSync(join(template, 'src', 'b.ts'), 'const x = {{nope}};');
    await expect(scaffold({ ...base, templateDir: template, targetDir: join(parent, 'out'), answers: sampleAnswers() })).rejects.toThrow(/src\/b\.ts: unknown placeholder \{\{nope\}\}/);
    expect(readdirSync(parent)).toEqual(['template']);
  });

  it('a folder it may not write to is a TargetDirError naming it', async () => {
    // /sys refuses new entries even to root (EPERM); chmod would not stop a root test run.
    await expect(scaffold({ ...base, targetDir: '/sys/fa-mcp-create-test', answers: sampleAnswers() })).rejects.toThrow(/^cannot write to \/sys \(EPERM: permission denied\)/);
    await expect(scaffold({ ...base, targetDir: '/sys/fa-mcp-create-test', answers: sampleAnswers() })).rejects.toThrow(TargetDirError);
  });

  it('rejects answers that do not fit together before touching the disk', async () => {
    const target = join(tmp.dir, 'bad-answers');
    await expect(scaffold({ ...base, targetDir: target, answers: sampleAnswers({ database: 'postgres' }) })).rejects.toThrow(/databaseUrl/);
    expect(existsSync(target)).toBe(false);
  });
});
