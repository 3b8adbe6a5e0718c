/**
 * Groups from a real OpenLDAP server on loopback: read from `memberOf` (as in
 * Active Directory) or searched with a group filter, cached per subject, with
 * filter injection escaped; through the whole server, `requiredGroups` follow
 * the directory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_ERROR_CODES } from '../../src/index.js';
import { LdapGroupResolver } from '../../src/auth/ldap-groups.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { bearer, guardedServer, rawPost, rsaKeyPair, signJwt, startAuthServer, toolCall, type KeyPair } from './helpers.js';
import { BASE_DN, SERVICE_DN, SERVICE_PASSWORD, slapdAvailable, startSlapd, type Slapd } from './slapd.js';
import { serviceAvailable } from '../../../../scripts/test-kit/ci-checks.mjs';

const available = serviceAvailable(slapdAvailable(), 'slapd (the LDAP group tests)', 'bash scripts/ci/install-slapd.sh (the CI entry point .ci/run does)');

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const ISS = 'https://idp.example.test';
const AUD = 'mcp-ldap';

describe.skipIf(!available)('LDAP groups against slapd', () => {
  let slapd: Slapd;
  const ldap = (over: Record<string, unknown> = {}) => ({
    url: slapd.url,
    bindDn: SERVICE_DN,
    bindPassword: SERVICE_PASSWORD,
    baseDn: BASE_DN,
    userFilter: '(uid={user})',
    groupFilter: '',
    groupNameAttribute: 'cn',
    cacheTtlMs: 60_000,
    timeoutMs: 2000,
    ...over,
  });

  beforeAll(async () => {
    slapd = await startSlapd();
  });
  afterAll(async () => {
    await slapd?.stop();
  });

  it('reads memberOf (the Active Directory way)', async () => {
    const r = new LdapGroupResolver(ldap());
    expect((await r.groupsOf('alice')).sort()).toEqual(['mcp-admins', 'mcp-users']);
    expect(await r.groupsOf('bob')).toEqual(['mcp-users']);
    expect(await r.groupsOf('carol')).toEqual([]);
    expect(await r.groupsOf('nobody')).toEqual([]);
  });

  it('searches groups with a group filter', async () => {
    const r = new LdapGroupResolver(ldap({ groupFilter: '(&(objectClass=groupOfNames)(member={dn}))' }));
    expect((await r.groupsOf('alice')).sort()).toEqual(['mcp-admins', 'mcp-users']);
  });

  it('escapes the subject: a wildcard or a filter fragment matches nobody', async () => {
    const r = new LdapGroupResolver(ldap());
    expect(await r.groupsOf('al*')).toEqual([]);
    expect(await r.groupsOf('alice)(uid=*')).toEqual([]);
  });

  it('a wrong service password fails the lookup', async () => {
    const r = new LdapGroupResolver(ldap({ bindPassword: 'wrong' }));
    await expect(r.groupsOf('alice')).rejects.toThrow();
  });

  describe('through the server', () => {
    let rsa: KeyPair;
    let server: TestServer;
    const calls: string[] = [];
    const call = async (sub: string, tool = 'group_tool') =>
      rawPost(server.handle.url as string, '/mcp', toolCall(tool), bearer(await signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub })));

    beforeAll(async () => {
      rsa = await rsaKeyPair();
      server = await startAuthServer(guardedServer(calls), STATELESS, {
        mcp: { responseMode: 'json' },
        webServer: { auth: { enabled: true, jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD }, ldap: ldap() } },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('requiredGroups follow the directory, and a cached answer outlives a directory outage', async () => {
      const alice = await call('alice');
      expect(alice.status).toBe(200);
      expect(JSON.stringify(alice.body)).toContain('mcp-admins');
      const bob = await call('bob');
      expect(bob.body.error).toMatchObject({ code: MCP_ERROR_CODES.FORBIDDEN, data: { error: 'forbidden' } });
      expect(calls).toEqual(['group_tool']);

      await slapd.stop(); // the directory goes away
      expect((await call('alice')).body.result).toBeDefined(); // cached
      // an uncached subject gets only the token's own groups: the group tool stays closed, the rest works
      expect((await call('carol')).body.error).toMatchObject({ data: { error: 'forbidden' } });
      expect((await call('carol', 'open_tool')).status).toBe(200);
    });
  });
});
