import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig, maskConfig } from '../../src/config/index.js';
import { Databases } from '../../src/db/index.js';
import { PoolTypes, poolConfig } from '../../src/db/pool-setup.js';
import pg from 'pg';
import { dbConfig } from './pg-env.js';

const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger };

describe('db configuration', () => {
  it('reads main from DB_MAIN_* / DATABASE_URL, fills secondary databases with defaults, masks secrets', () => {
    const { config } = loadConfig({
      cwd: '/nonexistent',
      env: { DATABASE_URL: 'postgres://app:s3cret@db:5432/app', DB_MAIN_POOL_SIZE: '4', DB_MAIN_USED_EXTENSIONS: 'vector,pg_trgm' },
      overrides: { db: { postgres: { dbs: { reports: { host: 'reports.internal', password: 'pw-2' } } } } },
    });
    const { main, reports } = config.db.postgres.dbs;
    expect(main).toMatchObject({ url: 'postgres://app:s3cret@db:5432/app', poolSize: 4, usedExtensions: ['vector', 'pg_trgm'], embedded: false });
    expect(reports).toMatchObject({ host: 'reports.internal', port: 5432, poolSize: 10, statementTimeoutMs: 30_000, embedded: false });
    const masked = JSON.stringify(maskConfig(config, configSchema));
    expect(masked).not.toContain('s3cret');
    expect(masked).not.toContain('pw-2');
    expect(new Databases({ config: config.db, logger }).names()).toEqual(['main', 'reports']);
  });

  it('stops the start on a bad value, with its path', () => {
    expect(() => loadConfig({ cwd: '/nonexistent', env: {}, overrides: { db: { postgres: { dbs: { reports: { port: 'x' } } } } } })).toThrow(
      /db\.postgres\.dbs\.reports\.port/,
    );
    expect(() => loadConfig({ cwd: '/nonexistent', env: { DB_MAIN_USED_EXTENSIONS: 'vector; DROP SCHEMA public' } })).toThrow(ConfigError);
  });

  it('a database with no url, no host and embedded false is not configured', () => {
    const { config } = loadConfig({ cwd: '/nonexistent', env: {} });
    const dbs = new Databases({ config: config.db, logger });
    expect(dbs.names()).toEqual([]);
    expect(dbs.readinessChecks()).toEqual([]);
    expect(() => dbs.main).toThrow(/not configured/);
  });

  it('maps the configuration onto pg pool options', () => {
    const types = new PoolTypes().config(pg.types.getTypeParser);
    expect(poolConfig('main', dbConfig({ host: 'h', port: 6000, user: 'u', password: 'p', database: 'd', ssl: true, sslRejectUnauthorized: false }), types)).toMatchObject({
      host: 'h',
      port: 6000,
      user: 'u',
      password: 'p',
      database: 'd',
      max: 5,
      statement_timeout: 10_000,
      ssl: { rejectUnauthorized: false },
      application_name: 'fa-mcp-sdk:main',
    });
    const fromUrl = poolConfig('r', dbConfig({ url: 'postgres://x@y/z', host: 'ignored', statementTimeoutMs: 0 }), types);
    expect(fromUrl).toMatchObject({ connectionString: 'postgres://x@y/z' });
    expect(fromUrl).not.toHaveProperty('host');
    expect(fromUrl).not.toHaveProperty('statement_timeout');
    const embedded = poolConfig('e', dbConfig({ embedded: true, poolSize: 50 }), types, { host: '127.0.0.1', port: 4321, user: 'postgres', database: 'postgres', stop: async () => {} });
    expect(embedded).toMatchObject({ host: '127.0.0.1', port: 4321, max: 4 });
  });
});
