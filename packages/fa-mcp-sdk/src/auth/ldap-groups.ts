/**
 * Groups of a caller, looked up in Active Directory or any LDAP server with
 * ldapts: find the user by `userFilter`, then either read its `memberOf` (AD,
 * OpenLDAP with the memberof overlay) or search groups with `groupFilter`.
 * Results are cached per subject. Values put into filters are escaped
 * (RFC 4515), so a subject cannot rewrite the filter.
 */
import type { AuthConfig } from '../config/sections/auth-config.js';
import { loadOptional } from '../core/optional-package.js';
import { TtlCache } from './ttl-cache.js';

/** The `webServer.auth.ldap` settings. */
export type LdapOptions = AuthConfig['ldap'];

/** Escapes a value for an LDAP search filter (RFC 4515). */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `CN=MCP Users,OU=Groups,DC=corp` -> `MCP Users` (the value of the first RDN, unescaped). */
export function groupNameFromDn(dn: string): string {
  const first = /^\s*[^=]+=((?:\\.|[^,\\])*)/.exec(dn)?.[1] ?? dn;
  return first.replace(/\\([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1').trim();
}

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));

export class LdapGroupResolver {
  private readonly cache: TtlCache<string[]>;
  private module: Promise<typeof import('ldapts')> | undefined;

  constructor(private readonly opts: LdapOptions) {
    this.cache = new TtlCache(opts.cacheTtlMs);
  }

  /** The group names of a subject ([] when the user is not found). */
  groupsOf(subject: string): Promise<string[]> {
    return this.cache.get(subject.toLowerCase(), () => this.lookup(subject));
  }

  clearCache(): void {
    this.cache.clear();
  }

  /** Loads ldapts (an optional peer): called at start, so a missing package stops it with the install command. */
  async ready(): Promise<void> {
    await this.ldapts();
  }

  private ldapts(): Promise<typeof import('ldapts')> {
    this.module ??= loadOptional('ldap', () => import('ldapts'));
    return this.module;
  }

  private async lookup(subject: string): Promise<string[]> {
    const { opts } = this;
    const { Client } = await this.ldapts(); // loaded only when a directory is configured
    const client = new Client({ url: opts.url, timeout: opts.timeoutMs, connectTimeout: opts.timeoutMs });
    try {
      if (opts.bindDn) await client.bind(opts.bindDn, opts.bindPassword);
      const { searchEntries: users } = await client.search(opts.baseDn, {
        scope: 'sub',
        filter: opts.userFilter.split('{user}').join(escapeFilterValue(subject)),
        attributes: ['memberOf'],
        sizeLimit: 2,
      });
      const user = users[0];
      if (!user || users.length > 1) return [];
      if (!opts.groupFilter) return asStrings(user.memberOf).map(groupNameFromDn);
      const { searchEntries: groups } = await client.search(opts.baseDn, {
        scope: 'sub',
        filter: opts.groupFilter.split('{dn}').join(escapeFilterValue(user.dn)),
        attributes: [opts.groupNameAttribute],
      });
      return groups.flatMap((g) => asStrings(g[opts.groupNameAttribute]));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}
