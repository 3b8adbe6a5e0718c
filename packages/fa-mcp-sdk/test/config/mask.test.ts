import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig, maskConfig, type SchemaNode } from '../../src/config/index.js';

const schema: SchemaNode = {
  type: 'object',
  properties: {
    db: {
      type: 'object',
      properties: {
        host: { type: 'string', default: 'h', description: 'h', 'x-env': ['DB_HOST'] },
        dsn: { type: 'string', default: '', description: 'd', 'x-env': ['DB_DSN'], 'x-secret': true },
      },
    },
  },
};

describe('maskConfig', () => {
  it('masks x-secret values and secret-looking key names, deep-copying the rest', () => {
    const config = {
      db: { host: 'db.local', dsn: 'postgres://u:p@h/db' },
      other: { password: 'p', apiKey: 'k', clientSecret: 's', authToken: 't', keyboard: 'fine', list: [{ pass: 'x' }] },
    };
    const masked = maskConfig(config, schema);
    expect(masked).toEqual({
      db: { host: 'db.local', dsn: '***' },
      other: { password: '***', apiKey: '***', clientSecret: '***', authToken: '***', keyboard: 'fine', list: [{ pass: '***' }] },
    });
    expect(masked.db).not.toBe(config.db);
    expect(config.db.dsn).toBe('postgres://u:p@h/db');
  });

  it('leaves the framework config (no secrets yet) unchanged', () => {
    const { config } = loadConfig({ cwd: '/nonexistent', env: {} });
    expect(maskConfig(config, configSchema)).toEqual(config);
  });

  it('secret values never appear in validation errors', () => {
    const extraSchema = {
      vault: { type: 'object', properties: { apiKey: { type: 'integer', default: 1, 'x-env': ['VAULT_KEY'] } } },
    };
    expect(() => loadConfig({ cwd: '/nonexistent', env: { VAULT_KEY: 'hunter2' }, extraSchema })).toThrow(
      /vault\.apiKey: must be integer \(got a hidden value from env:VAULT_KEY\)/,
    );
  });
});
