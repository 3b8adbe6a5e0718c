import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerError, checkAnswers, defaultAnswers, nameFromDir, parsePartialAnswers, titleFromName, validators } from '../src/answers.js';
import { readAnswersFile } from '../src/config-file.js';
import { commandsFor, detectPackageManager } from '../src/package-manager.js';
import { sampleAnswers, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(tmp.cleanup);

describe('answers', () => {
  it('validates the project name as an npm package name', () => {
    expect(validators.name('my-server')).toBeUndefined();
    expect(validators.name('@acme/my-server')).toBeUndefined();
    expect(validators.name('My Server')).toMatch(/not a valid npm package name/);
    expect(validators.name('node_modules')).toMatch(/not a valid/);
    expect(validators.name('.hidden')).toMatch(/not a valid/);
    expect(validators.name('a'.repeat(215))).toMatch(/not a valid/);
  });

  it('validates port, text fields and the database URL', () => {
    expect(validators.port('8080')).toBeUndefined();
    for (const bad of ['0', '65536', '80.5', 'abc', '']) expect(validators.port(bad), bad).toMatch(/1 to 65535/);
    expect(validators.productName('  ')).toMatch(/empty/);
    expect(validators.description('two\nlines')).toMatch(/one line/);
    expect(validators.description('uses {{braces}}')).toMatch(/\{\{/);
    expect(validators.databaseUrl('postgres://u:p@h:5432/db')).toBeUndefined();
    expect(validators.databaseUrl('mysql://h/db')).toMatch(/postgres:\/\//);
    expect(validators.databaseUrl('not a url')).toMatch(/must be a URL/);
  });

  it('derives defaults from the folder', () => {
    expect(nameFromDir('/tmp/My Weather Server')).toBe('my-weather-server');
    expect(nameFromDir('/tmp/___')).toBe('fa-mcp-server');
    expect(titleFromName('@acme/weather-mcp-api')).toBe('Weather MCP API');
    const d = defaultAnswers('/tmp/orders-mcp', 'pnpm', true);
    expect(d).toMatchObject({ name: 'orders-mcp', productName: 'Orders MCP', port: 3000, transport: 'http', install: true, packageManager: 'pnpm', auth: false });
    expect(defaultAnswers('/tmp/x', 'npm', false).install).toBe(false);
  });

  it('parses flags and file values, collecting every problem at once', () => {
    expect(parsePartialAnswers({ port: '4000', auth: true, install: 'false', transport: 'stdio' }, 'flags')).toEqual({
      port: 4000,
      auth: true,
      install: false,
      transport: 'stdio',
    });
    const err = (() => {
      try {
        parsePartialAnswers({ port: 'x', transport: 'ws', colour: 'red', name: 'Bad Name', auth: 'maybe' }, 'flags');
      } catch (e) {
        return e as AnswerError;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(AnswerError);
    expect(err?.problems).toHaveLength(5);
    expect(err?.message).toContain('unknown key "colour"');
  });

  it('checks answers that depend on each other', () => {
    expect(() => checkAnswers(sampleAnswers({ database: 'postgres' }))).toThrow(/databaseUrl/);
    expect(() => checkAnswers(sampleAnswers({ databaseUrl: 'postgres://h/db' }))).toThrow(/only used with database "postgres"/);
    expect(() => checkAnswers(sampleAnswers({ database: 'postgres', databaseUrl: 'postgres://h/db' }))).not.toThrow();
  });
});

describe('--config file', () => {
  it('reads YAML and JSON', () => {
    const yaml = join(tmp.dir, 'answers.yaml');
    writeFileSync(yaml, 'name: from-yaml\nport: 4100\nauth: true\n');
    expect(readAnswersFile(yaml)).toEqual({ name: 'from-yaml', port: 4100, auth: true });
    const json = join(tmp.dir, 'answers.json');
    writeFileSync(json, JSON.stringify({ description: 'From JSON', database: 'embedded' }));
    expect(readAnswersFile(json)).toEqual({ description: 'From JSON', database: 'embedded' });
  });

  it('names the file and the problem', () => {
    const bad = join(tmp.dir, 'bad.json');
    writeFileSync(bad, '{ "port": 70000 }');
    expect(() => readAnswersFile(bad)).toThrow(/--config .*bad\.json: port: The port must be/);
    const broken = join(tmp.dir, 'broken.json');
    writeFileSync(broken, '{ port: ');
    expect(() => readAnswersFile(broken)).toThrow(/not valid JSON/);
    const list = join(tmp.dir, 'list.yaml');
    writeFileSync(list, '- a\n- b\n');
    expect(() => readAnswersFile(list)).toThrow(/must hold an object/);
    expect(() => readAnswersFile(join(tmp.dir, 'missing.yaml'))).toThrow(/cannot be read/);
  });
});

describe('package manager', () => {
  it('is the one that ran the scaffolder', () => {
    expect(detectPackageManager('pnpm/10.34.9 npm/? node/v20.20.2 linux x64')).toBe('pnpm');
    expect(detectPackageManager('yarn/1.22.22 npm/? node/v20.20.2 linux x64')).toBe('yarn');
    expect(detectPackageManager('npm/11.1.0 node/v20.20.2 linux x64 workspaces/false')).toBe('npm');
    expect(detectPackageManager('bun/1.1.0')).toBe('npm');
    expect(detectPackageManager(undefined)).toBe('npm');
  });

  it('gives each manager its lockfile and frozen install', () => {
    expect(commandsFor('npm')).toMatchObject({ ciInstall: 'npm ci', lockfile: 'package-lock.json' });
    expect(commandsFor('pnpm')).toMatchObject({ ciInstall: 'pnpm install --frozen-lockfile', lockfile: 'pnpm-lock.yaml' });
    expect(commandsFor('yarn')).toMatchObject({ ciInstall: 'yarn install --frozen-lockfile', lockfile: 'yarn.lock' });
  });
});
