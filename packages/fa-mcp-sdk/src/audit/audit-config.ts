/**
 * The checks of `mcp.audit` the schema cannot make, run before the trail opens its sink: a
 * ConfigError naming each problem. Also the instance name a record carries by default.
 */
import { hostname } from 'node:os';
import { ConfigError } from '../config/config-error.js';
import type { ConfigIssue } from '../config/config-error.js';
import type { AppConfig } from '../config/schema.js';
import { MIN_ANCHOR_KEY_LENGTH } from './anchor-signer.js';

/** What the check needs to know of the server's databases. */
export interface DatabaseNames {
  has(name: string): boolean;
}

export function auditConfigIssues(config: Pick<AppConfig['mcp'], 'audit' | 'transportType'>, databases?: DatabaseNames): ConfigIssue[] {
  const { audit } = config;
  const issues: ConfigIssue[] = [];
  if (audit.sink === 'off') return issues;
  if (audit.sink === 'jsonl' && audit.file === 'stdout' && config.transportType === 'stdio') {
    issues.push({ path: 'mcp.audit.file', message: '"stdout" carries the MCP protocol on a stdio server: use stderr or a file path (MCP_AUDIT_FILE)' });
  }
  if (audit.sink === 'postgres' && databases && !databases.has(audit.database)) {
    const env = audit.database === 'main' ? 'DB_MAIN_URL' : `db.postgres.dbs.${audit.database}.url`;
    issues.push({ path: 'mcp.audit.sink', message: `"postgres" needs the database "${audit.database}": set ${env}` });
  }
  if (audit.anchors.key !== '' && audit.anchors.key.length < MIN_ANCHOR_KEY_LENGTH) {
    issues.push({ path: 'mcp.audit.anchors.key', message: `must be at least ${MIN_ANCHOR_KEY_LENGTH} characters (got a shorter hidden value)` });
  }
  return issues;
}

/** Throws a ConfigError listing what is wrong with `mcp.audit`. */
export function checkAuditConfig(config: Pick<AppConfig['mcp'], 'audit' | 'transportType'>, databases?: DatabaseNames): void {
  const issues = auditConfigIssues(config, databases);
  if (issues.length > 0) throw new ConfigError(issues);
}

/**
 * The instance name of records when `mcp.audit.instance` is empty: the host name and the HTTP
 * port (a container's restart keeps both, so its next chain names its previous one); on stdio,
 * where every client starts its own process, the host name and the process id.
 */
export function defaultAuditInstance(transport: 'http' | 'stdio', port?: number): string {
  return transport === 'stdio' ? `${hostname()}:stdio:${process.pid}` : `${hostname()}:${port ?? 0}`;
}
