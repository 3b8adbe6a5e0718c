/**
 * Optional parts of fa-mcp-sdk: packages a server needs only for one feature, declared as
 * optional peer dependencies (package.json `peerDependenciesMeta`) and loaded when the
 * configuration asks for the feature. When one is missing, the feature fails with an error that
 * names the packages to install, instead of Node's bare "Cannot find package".
 *
 * The table below is the single list: package.json's optional peers are checked against it
 * (test/package/optional-packages.test.ts), and FA-MCP-SDK-DOC/01-getting-started.md lists it.
 */

export interface OptionalPart {
  /** What needs the packages, as a user configures it. */
  feature: string;
  /** The packages to install, with the versions this release is tested with. */
  packages: ReadonlyArray<readonly [name: string, version: string]>;
}

export const OPTIONAL_PARTS = {
  postgres: {
    feature: 'PostgreSQL (db.postgres.dbs, the postgres stores and bus)',
    packages: [['pg', '8.23.1']],
  },
  embeddedDb: {
    feature: 'The embedded database (db.postgres.dbs.<name>.embedded)',
    // served over the PostgreSQL protocol, so the pg client comes with it
    packages: [['pg', '8.23.1'], ['@electric-sql/pglite', '0.5.14'], ['@electric-sql/pglite-socket', '0.2.17']],
  },
  embeddedVector: {
    feature: 'The vector extension of the embedded database (embedded.extensions: [vector])',
    packages: [['@electric-sql/pglite-pgvector', '0.0.15']],
  },
  swaggerUi: {
    feature: 'The API reference page (webServer.openapi.docsPath)',
    packages: [['swagger-ui-dist', '5.35.0']],
  },
  consul: {
    feature: 'Consul registration and access points (consul.enabled)',
    packages: [['consul', '2.0.1']],
  },
  ldap: {
    feature: 'Group lookup in a directory (webServer.auth.ldap)',
    packages: [['ldapts', '8.0.17']],
  },
  prettyLogs: {
    feature: 'Human-readable logs (logger.format: pretty)',
    packages: [['pino-pretty', '13.2.0']],
  },
  mcpClient: {
    feature: 'The MCP client of fa-mcp-sdk/testing and of the Agent Tester',
    packages: [['@modelcontextprotocol/client', '2.4.0']],
  },
  otelLogs: {
    feature: 'Audit records as OpenTelemetry log records (mcp.audit.otel, with a LoggerProvider registered)',
    packages: [['@opentelemetry/api-logs', '0.223.1']],
  },
} as const satisfies Record<string, OptionalPart>;

export type OptionalPartName = keyof typeof OPTIONAL_PARTS;

/** The install command for a part: `npm i name@version ...`. */
export function installCommand(part: OptionalPart): string {
  return `npm i ${part.packages.map(([name, version]) => `${name}@${version}`).join(' ')}`;
}

/** A feature was asked for whose optional packages are not installed. */
export class MissingPackageError extends Error {
  readonly packages: string[];

  constructor(
    readonly part: OptionalPart,
    cause: unknown,
  ) {
    const names = part.packages.map(([name]) => name);
    super(`${part.feature} needs ${names.join(', ')}, not installed: ${installCommand(part)}`, { cause });
    this.name = 'MissingPackageError';
    this.packages = names;
  }
}

/** Whether `err` is Node's "module not found" for one of the part's packages itself (not a file inside a broken install). */
export function isMissing(part: OptionalPart, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((err as Error).message);
  // ESM: Cannot find package 'name' imported from …; CJS: Cannot find module 'name/…'
  return part.packages.some(([name]) => message.includes(`'${name}'`) || message.includes(`'${name}/`));
}

/** Runs `load` (an `import()` of the part's package); a missing package becomes a MissingPackageError. */
export async function loadOptional<T>(name: OptionalPartName, load: () => Promise<T>): Promise<T> {
  const part: OptionalPart = OPTIONAL_PARTS[name];
  try {
    return await load();
  } catch (err) {
    throw isMissing(part, err) ? new MissingPackageError(part, err) : err;
  }
}

/** The synchronous twin of loadOptional, for a `require()` or `require.resolve()`. */
export function requireOptional<T>(name: OptionalPartName, load: () => T): T {
  const part: OptionalPart = OPTIONAL_PARTS[name];
  try {
    return load();
  } catch (err) {
    throw isMissing(part, err) ? new MissingPackageError(part, err) : err;
  }
}
