/**
 * A real OpenLDAP server for the group tests: Debian's slapd (installed by
 * scripts/ci/install-slapd.sh), started in the foreground on a free loopback
 * port with a throw-away database and the memberof overlay, then filled
 * through ldapts. Missing slapd skips the tests locally and fails them in CI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';

export const SLAPD_BIN = '/usr/sbin/slapd';
export const BASE_DN = 'dc=example,dc=test';
export const SERVICE_DN = `cn=svc-reader,${BASE_DN}`;
export const SERVICE_PASSWORD = 'svc-reader-password';
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = 'admin-password';

export interface Slapd {
  url: string;
  stop(): Promise<void>;
}

export function slapdAvailable(): boolean {
  return existsSync(SLAPD_BIN) && existsSync('/etc/ldap/schema/core.schema');
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const config = (dir: string) => `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
pidfile ${join(dir, 'slapd.pid')}
database mdb
suffix "${BASE_DN}"
rootdn "${ROOT_DN}"
rootpw ${ROOT_PASSWORD}
directory ${join(dir, 'db')}
maxsize 10485760
overlay memberof
`;

export async function startSlapd(): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-slapd-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'slapd.conf'), config(dir));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let stderr = '';
  const child: ChildProcess = spawn(SLAPD_BIN, ['-h', `${url}/`, '-f', join(dir, 'slapd.conf'), '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForBind(url, () => child.exitCode !== null, () => stderr);
    await seed(url);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

async function waitForBind(url: string, exited: () => boolean, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited()) throw new Error(`slapd exited: ${log()}`);
    const client = new Client({ url, timeout: 1000, connectTimeout: 1000 });
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`slapd did not answer: ${(err as Error).message}; ${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}

const person = (uid: string) => ({ dn: `uid=${uid},ou=people,${BASE_DN}`, attrs: { objectClass: ['inetOrgPerson'], uid, cn: uid, sn: uid } });
const group = (cn: string, members: string[]) => ({
  dn: `cn=${cn},ou=groups,${BASE_DN}`,
  attrs: { objectClass: ['groupOfNames'], cn, member: members.map((m) => `uid=${m},ou=people,${BASE_DN}`) },
});

/** alice: mcp-admins, mcp-users; bob: mcp-users; carol: no group. */
async function seed(url: string): Promise<void> {
  const client = new Client({ url });
  try {
    await client.bind(ROOT_DN, ROOT_PASSWORD);
    const entries: Array<{ dn: string; attrs: Record<string, string | string[]> }> = [
      { dn: BASE_DN, attrs: { objectClass: ['dcObject', 'organization'], o: 'Example', dc: 'example' } },
      { dn: SERVICE_DN, attrs: { objectClass: ['organizationalRole', 'simpleSecurityObject'], cn: 'svc-reader', userPassword: SERVICE_PASSWORD } },
      { dn: `ou=people,${BASE_DN}`, attrs: { objectClass: ['organizationalUnit'], ou: 'people' } },
      { dn: `ou=groups,${BASE_DN}`, attrs: { objectClass: ['organizationalUnit'], ou: 'groups' } },
      person('alice'),
      person('bob'),
      person('carol'),
      group('mcp-admins', ['alice']),
      group('mcp-users', ['alice', 'bob']),
    ];
    for (const e of entries) await client.add(e.dn, e.attrs);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
