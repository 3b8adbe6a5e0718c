/**
 * `fa-mcp token`: tokens minted from the project's configuration files in each
 * mode that can mint, accepted by a server of the same configuration; a key
 * that does not match is refused; `--fingerprint` names a token for revocation.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dump } from 'js-yaml';
import { runCli } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { bearer, guardedServer, rawPost, rsaKeyPair, startAuthServer, toolCall } from './helpers.js';

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const dirs: string[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(auth: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-token-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'default.yaml'), dump({ webServer: { auth } }));
  return dir;
}

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd };
  const code = await runCli(['node', 'fa-mcp', ...args], () => io);
  return { code, out, err };
}

async function accepted(auth: Record<string, unknown>, token: string, tool = 'scoped_tool'): Promise<number> {
  const calls: string[] = [];
  const s = await startAuthServer(guardedServer(calls), STATELESS, { mcp: { responseMode: 'json' }, webServer: { auth: { enabled: true, ...auth } } });
  servers.push(s);
  const r = await rawPost(s.handle.url as string, '/mcp', toolCall(tool), bearer(token));
  return r.status === 200 && calls.length === 1 ? 200 : r.status === 200 ? 403 : r.status;
}

describe('fa-mcp token', () => {
  it('legacyAesCtr: mints from the shared secret in config/default.yaml', async () => {
    const auth = { jwtToken: { mode: 'legacyAesCtr', encryptKey: 'cli-legacy-secret-0123456789abcdef' } };
    const dir = project(auth);
    const r = await cli(['token', '--sub', 'alice', '--scope', 'reports:write', '--ttl', '10m', '--json'], dir);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { token: string; tokenId: string; expiresAt: number };
    expect(out.expiresAt - Date.now() / 1000).toBeGreaterThan(590);
    expect(await accepted(auth, out.token)).toBe(200);
  });

  it('embedded: mints with the configured key; --new-key prints one', async () => {
    const gen = await cli(['token', '--new-key', 'ec'], process.cwd());
    expect(gen.out).toContain('BEGIN PRIVATE KEY');
    const auth = { jwtToken: { mode: 'embedded', issuer: 'https://mcp.example.test', privateKey: gen.out } };
    const dir = project(auth);
    const r = await cli(['token', '--sub', 'svc', '--scope', 'reports:write,reports:read'], dir);
    expect(r.code).toBe(0);
    expect(await accepted(auth, r.out.trim())).toBe(200);
  });

  it('localKey: mints with the operator private key, and refuses a key that does not match', async () => {
    const rsa = await rsaKeyPair();
    const other = await rsaKeyPair();
    const auth = { jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: 'https://idp.example', audience: 'mcp' } };
    const dir = project(auth);
    writeFileSync(join(dir, 'signing.pem'), rsa.privatePem);
    writeFileSync(join(dir, 'other.pem'), other.privatePem);
    const ok = await cli(['token', '--sub', 'heidi', '--scope', 'reports:write', '--private-key', 'signing.pem'], dir);
    expect(ok.code).toBe(0);
    expect(await accepted(auth, ok.out.trim())).toBe(200);
    const bad = await cli(['token', '--sub', 'heidi', '--private-key', 'other.pem'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/does not match/);
  });

  it('remoteJwks cannot mint; a missing --sub is a usage error', async () => {
    const dir = project({ jwtToken: { mode: 'remoteJwks', jwksUrl: 'https://idp.example/jwks', issuer: 'i', audience: 'a' } });
    expect((await cli(['token', '--sub', 'x'], dir)).err).toMatch(/come from the issuer/);
    expect((await cli(['token'], dir)).code).toBe(2);
  });

  it('--fingerprint names a token for revoked.tokenIds, which then refuses it', async () => {
    const token = 'pst-2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c';
    const { out } = await cli(['token', '--fingerprint', token], process.cwd());
    const id = out.trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(await accepted({ permanentServerTokens: [token] }, token, 'open_tool')).toBe(200);
    expect(await accepted({ permanentServerTokens: [token], revoked: { tokenIds: [id] } }, token, 'open_tool')).toBe(401);
  });
});
