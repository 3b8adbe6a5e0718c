/**
 * What a record holds and how the trail is configured:
 * - the environment names outside checks use (MCP_AUDIT_SINK, MCP_AUDIT_FILE, MCP_AUDIT_MODE) set
 *   mcp.audit; the sink is off by default, and then nothing is written;
 * - stdout is refused on a stdio server, a short anchor key and a missing database are refused;
 * - arguments: none, digest (SHA-256 of canonical JSON: key order does not matter) or masked (the
 *   masking rules of logs); the principal never carries a token, a password or the claim set;
 * - jsonl in sync mode: a record acknowledged is in the file; records go to stderr when asked.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { argumentsDigest, auditArguments } from '../../src/audit/audit-arguments.js';
import { contextFields, refusalOutcome, wireOutcome } from '../../src/audit/audit-draft.js';
import { auditConfigIssues } from '../../src/audit/audit-config.js';
import { auditPrincipal } from '../../src/audit/audit-principal.js';
import { createAuditTrail, DISABLED_AUDIT_TRAIL } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config/loader.js';
import { ConfigError } from '../../src/config/config-error.js';
import { ANCHOR_KEY, auditConfig, draft, readRecords, recordingLogger, tempDir } from './audit-harness.js';

describe('configuration', () => {
  it('takes MCP_AUDIT_SINK, MCP_AUDIT_FILE and MCP_AUDIT_MODE; off by default', () => {
    const cwd = tempDir();
    expect(loadConfig({ cwd, env: {} }).config.mcp.audit).toMatchObject({ sink: 'off', mode: 'async', arguments: 'digest', file: 'stderr', retentionDays: 0 });
    const { config, sources } = loadConfig({ cwd, env: { MCP_AUDIT_SINK: 'jsonl', MCP_AUDIT_FILE: '/var/log/mcp/audit.jsonl', MCP_AUDIT_MODE: 'sync', MCP_AUDIT_ANCHOR_KEY: ANCHOR_KEY } });
    expect(config.mcp.audit).toMatchObject({ sink: 'jsonl', file: '/var/log/mcp/audit.jsonl', mode: 'sync', anchors: { key: ANCHOR_KEY } });
    expect(sources['mcp.audit.sink']).toBe('env:MCP_AUDIT_SINK');
    expect(() => loadConfig({ cwd, env: { MCP_AUDIT_SINK: 'syslog' } })).toThrow(/mcp\.audit\.sink: must be one of "off", "jsonl", "postgres"/);
  });

  it('the example of 13-audit-trail loads as written', () => {
    const page = readFileSync(fileURLToPath(new URL('../../../../FA-MCP-SDK-DOC/13-audit-trail.md', import.meta.url)), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const cwd = tempDir();
    mkdirSync(join(cwd, 'config'));
    writeFileSync(join(cwd, 'config', 'production.yaml'), yaml);
    expect(loadConfig({ cwd, env: {}, nodeEnv: 'production' }).config.mcp.audit).toMatchObject({ sink: 'postgres', mode: 'sync', arguments: 'digest', retentionDays: 400 });
  });

  it('off: a trail that records nothing', async () => {
    const trail = await createAuditTrail({ config: auditConfig({ sink: 'off' }), logger: recordingLogger() });
    expect(trail).toBe(DISABLED_AUDIT_TRAIL);
    expect(trail.enabled).toBe(false);
    await expect(trail.record(draft(1))).resolves.toBeUndefined();
    expect(trail.readinessCheck()).toBeUndefined();
  });

  it('refuses stdout on a stdio server, a short anchor key, and postgres without its database', async () => {
    const stdio = await createAuditTrail({ config: auditConfig({ file: 'stdout' }, 'stdio'), logger: recordingLogger() }).catch((e: unknown) => e);
    expect(stdio).toBeInstanceOf(ConfigError);
    expect((stdio as ConfigError).issues).toEqual([{ path: 'mcp.audit.file', message: expect.stringContaining('"stdout" carries the MCP protocol on a stdio server') }]);

    expect(auditConfigIssues(auditConfig({ file: 'stdout' }, 'http'))).toEqual([]); // over HTTP, stdout is a log stream like any

    const short = await createAuditTrail({ config: auditConfig({ anchors: { key: 'k3y-Xq9', intervalMs: 60_000 } }), logger: recordingLogger() }).catch((e: unknown) => e);
    expect((short as ConfigError).issues).toEqual([{ path: 'mcp.audit.anchors.key', message: expect.stringContaining('at least 32 characters') }]);
    expect((short as ConfigError).message).not.toContain('k3y-Xq9');

    const pg = await createAuditTrail({ config: auditConfig({ sink: 'postgres' }), logger: recordingLogger(), databases: { has: () => false } }).catch((e: unknown) => e);
    expect((pg as ConfigError).issues).toEqual([{ path: 'mcp.audit.sink', message: '"postgres" needs the database "main": set DB_MAIN_URL' }]);
  });
});

describe('arguments and principal', () => {
  it('none, digest of canonical JSON, or masked', () => {
    const args = { user: 'alice', password: 'hunter2', nested: { apiKey: 'k-123', note: 'see https://bob:secret@example.com/x' } };
    expect(auditArguments('none', args)).toEqual({ mode: 'none' });
    const digest = auditArguments('digest', args);
    expect(digest).toEqual({ mode: 'digest', digest: argumentsDigest({ nested: { note: args.nested.note, apiKey: 'k-123' }, password: 'hunter2', user: 'alice' }) });
    // the SHA-256 of the canonical JSON a reviewer can compute from the arguments, whatever their key order
    const canonical = createHash('sha256').update('{"a":1,"b":[1,{"c":3,"d":2}]}').digest('hex');
    expect(argumentsDigest({ b: [1, { d: 2, c: 3 }], a: 1 })).toBe(canonical);
    expect(auditArguments('masked', args)).toEqual({ mode: 'masked', masked: { user: 'alice', password: '***', nested: { apiKey: '***', note: 'see https://***@example.com/x' } } });
    expect(auditArguments('digest', undefined)).toBeUndefined();
  });

  it('the principal: subject, client, issuer, mode, groups, scopes; never the token or the claims', () => {
    const auth = { subject: 'alice', scopes: ['tools:call'], groups: ['staff'], claims: { iss: 'https://idp.example.com', azp: 'cli-app', access_token: 'eyJ.secret', password: 'p' } };
    const principal = auditPrincipal(auth);
    expect(principal).toEqual({ subject: 'alice', clientId: 'cli-app', issuer: 'https://idp.example.com', authMode: 'jwt', groups: ['staff'], scopes: ['tools:call'] });
    expect(JSON.stringify(principal)).not.toMatch(/secret|eyJ|"p"/);
    expect(auditPrincipal({ subject: 'svc', scopes: [], groups: [], claims: { token_type: 'permanentServerToken' } })?.authMode).toBe('static');
    expect(auditPrincipal(undefined)).toBeNull();
    expect(contextFields({ requestId: 'r1', era: '2026', transport: 'http', clientCapabilities: {}, auth, trace: { traceId: 't'.repeat(32), parentId: 'p'.repeat(16), sampled: true }, remoteAddress: '127.0.0.1' })).toEqual({
      requestId: 'r1', traceId: 't'.repeat(32), era: '2026', transport: 'http', remoteAddress: '127.0.0.1', principal,
    });
  });

  it('outcomes of the wire and of refusals', () => {
    expect(wireOutcome({ result: { content: [] } })).toEqual({ status: 'ok' });
    expect(wireOutcome({ result: { content: [], isError: true } })).toEqual({ status: 'tool_error' });
    expect(wireOutcome({ error: { code: -32602, message: 'bad' } })).toEqual({ status: 'error', code: -32602 });
    expect(wireOutcome({ error: { code: -32003, message: 'slow down' } })).toEqual({ status: 'refused', code: -32003, reason: 'rate_limited' });
    expect(wireOutcome({ cancelled: true })).toEqual({ status: 'cancelled' });
    expect(refusalOutcome('unauthorized')).toEqual({ status: 'refused', reason: 'unauthorized', httpStatus: 401 });
    expect(refusalOutcome('payload_too_large', -32005)).toEqual({ status: 'refused', code: -32005, reason: 'payload_too_large', httpStatus: 413 });
  });
});

describe('jsonl sink', () => {
  it('sync: a record acknowledged is in the file, in chain order, with its arguments as configured', async () => {
    const file = join(tempDir(), 'nested', 'audit.jsonl');
    const trail = await createAuditTrail({ config: auditConfig({ file, mode: 'sync', arguments: 'masked' }), logger: recordingLogger() });
    for (let i = 0; i < 3; i++) {
      await trail.record(draft(i, { arguments: { token: `t-${i}`, n: i } }));
      const last = readRecords(file).at(-1);
      expect(last).toMatchObject({ kind: 'request', requestId: `req-${i}`, seq: i + 1, arguments: { mode: 'masked', masked: { token: '***', n: i } } });
    }
    expect(readFileSync(file, 'utf8')).not.toContain('t-1');
    await trail.close();
  });

  it('stderr: one line per record', async () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      const cb = rest.find((r) => typeof r === 'function') as ((err?: Error) => void) | undefined;
      cb?.();
      return true;
    }) as typeof process.stderr.write;
    try {
      const trail = await createAuditTrail({ config: auditConfig({ file: 'stderr', mode: 'sync' }), logger: recordingLogger() });
      await trail.record(draft(5));
      await trail.close();
    } finally {
      process.stderr.write = original;
    }
    const lines = written.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; requestId?: string });
    expect(lines.map((l) => l.kind)).toEqual(['chain_start', 'request']);
    expect(lines[1]?.requestId).toBe('req-5');
  });
});
