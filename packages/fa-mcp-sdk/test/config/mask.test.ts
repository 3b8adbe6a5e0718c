/**
 * The one masking rule (src/config/mask.ts): which names are credentials, what is masked inside
 * text, the deep copy of maskSecrets, the logger's copy-on-write view, maskConfig guided by the
 * schema, and the values `config validate` quotes.
 */
import { describe, expect, it } from 'vitest';
import { configSchema, isSecretKey, loadConfig, maskConfig, maskedView, maskSecrets, maskSecretsInString, type SchemaNode } from '../../src/config/index.js';

describe('isSecretKey', () => {
  it('names a credential by its last word, and every headers map', () => {
    const secret = ['password', 'DB_PASSWORD', 'bindPassword', 'passwd', 'pass', 'secret', 'clientSecret', 'client_secret', 'cursorSecret', 'token', 'accessToken',
      'refresh_token', 'permanentServerTokens', 'x-auth-token', 'Authorization', 'proxy-authorization', 'Cookie', 'set-cookie', 'credentials', 'apiKey', 'APIKey',
      'api_key', 'X-Api-Key', 'XApiKey', 'privateKey', 'private_key', 'encryptKey', 'headers', 'Headers'];
    const plain = ['tokenCheck', 'secretEnv', 'serverTokenScopes', 'tokenIds', 'passingOnly', 'bypass', 'publicKey', 'idempotencyKey', 'key', 'keyboard', 'hideUnauthorized',
      'tokenUrl', 'token_type', 'name', 'url', 'accept'];
    expect(secret.filter((k) => !isSecretKey(k))).toEqual([]);
    expect(plain.filter((k) => isSecretKey(k))).toEqual([]);
  });
});

describe('maskSecretsInString', () => {
  it('masks the userinfo of URLs (user and password), auth schemes and credential pairs', () => {
    expect(maskSecretsInString('postgres://app:hunter2@db:5432/main')).toBe('postgres://***@db:5432/main');
    expect(maskSecretsInString('see https://ghp_tok3n@github.com/x and http://hook:p@ss@h.example/y?a=1')).toBe('see https://***@github.com/x and http://***@h.example/y?a=1');
    expect(maskSecretsInString('https://example.com/a:b@c is a path, not userinfo')).toBe('https://example.com/a:b@c is a path, not userinfo');
    expect(maskSecretsInString('sent Bearer eyJhbGciOi.x-y_z= and basic dXNlcjpwYXNz')).toBe('sent Bearer *** and basic ***');
    expect(maskSecretsInString('Basic authentication is not accepted; send a Bearer token')).toBe('Basic authentication is not accepted; send a Bearer token');
    expect(maskSecretsInString('host=db password=hunter2 user=app')).toBe('host=db password=*** user=app');
    expect(maskSecretsInString('GET /cb?code=1&access_token=abc.def&state=x')).toBe('GET /cb?code=1&access_token=***&state=x');
    expect(maskSecretsInString('upstream said {"access_token": "abc", "token_type":"bearer"}')).toBe('upstream said {"access_token": "***", "token_type":"bearer"}');
    expect(maskSecretsInString('plain text')).toBe('plain text');
  });
});

describe('maskSecrets', () => {
  it('masks credential keys and headers maps at any depth, keeps names and booleans, and returns a deep copy', () => {
    const input = {
      user: 'ann',
      password: 'p1',
      allowQueryToken: false,
      nested: {
        headers: { Authorization: 'Bearer abc', Cookie: 'sid=1', 'X-Api-Key': 'k', 'X-Custom-Sig': 'hush', accept: 'json' },
        list: [{ pass: 'p2', clientSecret: 's', refresh_token: 'r', private_key: 'pk', ok: 1 }],
        token: { value: 'tv', expires: 5, rotating: true },
      },
    };
    const snapshot = structuredClone(input);
    const output = maskSecrets(input) as typeof input;

    expect(output).toEqual({
      user: 'ann',
      password: '***',
      allowQueryToken: false,
      nested: {
        headers: { Authorization: '***', Cookie: '***', 'X-Api-Key': '***', 'X-Custom-Sig': '***', accept: '***' },
        list: [{ pass: '***', clientSecret: '***', refresh_token: '***', private_key: '***', ok: 1 }],
        token: { value: '***', expires: '***', rotating: true },
      },
    });
    expect(input).toEqual(snapshot);
    expect(output).not.toBe(input);
    expect(output.nested).not.toBe(input.nested);
    expect(output.nested.list).not.toBe(input.nested.list);
  });

  it('masks credentials inside strings', () => {
    expect(maskSecrets({ note: 'sent Bearer eyJhbGciOi.x-y_z= to http://u:p@h/x' })).toEqual({ note: 'sent Bearer *** to http://***@h/x' });
    expect(maskSecrets('plain text')).toBe('plain text');
  });

  it('copies primitives, dates, errors, maps and sets safely', () => {
    const date = new Date(0);
    const err = new Error('bad Bearer tok123');
    const out = maskSecrets({ n: 1, b: true, nil: null, u: undefined, date, err, map: new Map([['token', 'x']]) }) as Record<string, unknown>;
    expect(out.n).toBe(1);
    expect(out.nil).toBeNull();
    expect(out.date).toEqual(date);
    expect(out.date).not.toBe(date);
    expect((out.err as { message: string }).message).toBe('bad Bearer ***');
    expect(err.message).toBe('bad Bearer tok123');
    expect((out.map as Map<string, unknown>).get('token')).toBe('***');
    expect([...(maskSecrets(new Set(['Basic abc123'])) as Set<string>)]).toEqual(['Basic ***']);
  });

  it('survives cycles and shared references', () => {
    const shared = { v: 1 };
    const node: Record<string, unknown> = { a: shared, b: shared };
    node.self = node;
    const out = maskSecrets(node) as Record<string, unknown>;
    expect(out.self).toBe('[Circular]');
    expect(out.a).toEqual({ v: 1 });
    expect(out.b).toEqual({ v: 1 });
  });
});

describe('maskedView (the logger)', () => {
  it('is the value itself when nothing is masked, else a copy of only the changed parts', () => {
    const clean = { a: { b: [1, 'two', { c: true }] }, url: 'https://example.com/x' };
    expect(maskedView(clean)).toBe(clean);
    const dirty = { keep: { x: 1 }, deep: { dsn: 'postgres://app:pw@db/main', headers: { 'x-trace': 't' } } };
    const view = maskedView(dirty);
    expect(view).toEqual({ keep: { x: 1 }, deep: { dsn: 'postgres://***@db/main', headers: { 'x-trace': '***' } } });
    expect(view.keep).toBe(dirty.keep);
    expect(dirty.deep.dsn).toBe('postgres://app:pw@db/main');
  });
});

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
