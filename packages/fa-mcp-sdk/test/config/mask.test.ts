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

  it('masks the secrets of the framework config and keeps the rest', () => {
    const secrets = ['s3cret-server-token', 'basic-pw:with:colons', 'legacy-encrypt-key', 'ldap-bind-pw', 'client-secret-1', 'stdio-tok'];
    const { config } = loadConfig({
      cwd: '/nonexistent',
      env: {},
      overrides: {
        webServer: {
          auth: {
            permanentServerTokens: [secrets[0]],
            basic: { username: 'admin', password: secrets[1] },
            jwtToken: { encryptKey: secrets[2] },
            ldap: { bindPassword: secrets[3] },
            oauth: { clients: [{ clientId: 'c1', clientSecret: secrets[4] }] },
            stdioToken: secrets[5],
          },
        },
      },
    });
    const masked = maskConfig(config, configSchema);
    const text = JSON.stringify(masked);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(masked.webServer.auth.basic.username).toBe('admin');
    // Whatever differs from the original is a masked value, nothing else changed.
    const diff = (a: unknown, b: unknown, path: string, out: string[]) => {
      if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
        for (const k of Object.keys(a)) diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
      } else if (JSON.stringify(a) !== JSON.stringify(b)) {
        expect(b, path).toBe('***');
        out.push(path);
      }
    };
    const changed: string[] = [];
    diff(config, masked, '', changed);
    expect(changed).toEqual(expect.arrayContaining(['.webServer.auth.permanentServerTokens', '.webServer.auth.basic.password', '.webServer.auth.stdioToken']));
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
