/**
 * Optional features of a generated project (authentication, database, Consul registration) and the
 * settings each one writes. A feature is offered only when the fa-mcp-sdk release the template is
 * made for has its configuration section (`sdkPaths`, read from the template's config/default.yaml,
 * which a test keeps equal to the SDK's schema):
 * a server must never be generated with a setting its SDK ignores or rejects, least of all an
 * authentication switch that protects nothing.
 */
import { load as parseYaml } from 'js-yaml';
import type { Answers } from './answers.js';
import { generateSecret } from './secrets.js';

export type FeatureId = 'auth' | 'database' | 'consul';

export interface FeatureInfo {
  id: FeatureId;
  label: string;
  /** Configuration sections of fa-mcp-sdk this feature writes to. */
  requires: string[];
}

export const FEATURES: readonly FeatureInfo[] = [
  { id: 'auth', label: 'authentication', requires: ['webServer.auth'] },
  { id: 'database', label: 'database', requires: ['db.postgres'] },
  { id: 'consul', label: 'Consul registration', requires: ['consul'] },
];

/** Dotted paths of every section and key of the SDK's configuration schema. */
export type SdkPaths = ReadonlySet<string>;

/** Every dotted path of a config/default.yaml (placeholders read as plain values). */
export function sdkPathsFromConfigYaml(text: string): SdkPaths {
  const data = parseYaml(text.replace(/\{\{[^}]*\}\}/g, '0'));
  const paths = new Set<string>();
  const walk = (value: unknown, prefix: string) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      paths.add(path);
      walk(child, path);
    }
  };
  walk(data, '');
  return paths;
}

export function isAvailable(feature: FeatureInfo, sdkPaths: SdkPaths): boolean {
  return feature.requires.every((path) => sdkPaths.has(path));
}

export function availableFeatures(sdkPaths: SdkPaths): Set<FeatureId> {
  return new Set(FEATURES.filter((f) => isAvailable(f, sdkPaths)).map((f) => f.id));
}

/** What the chosen features add to the generated project. */
export interface FeatureOutput {
  /** Lines of `.env` (git-ignored), `NAME=value`: the only place a secret is written. */
  env: Record<string, string>;
  /** Every secret generated or given, so callers and tests can check where it went. */
  secrets: string[];
}

/**
 * The secrets and connection settings of the chosen features; `answers` must already respect
 * `availableFeatures`. The switches themselves are placeholders of committed files (see
 * template-vars.ts), so every clone and the Docker image agree; secrets go into `.env`, which
 * `npm start` loads and docker compose passes into the container.
 */
export function featureOutput(answers: Answers, sdkPaths: SdkPaths): FeatureOutput {
  const out: FeatureOutput = { env: {}, secrets: [] };
  // The PostgreSQL service of deploy/docker/docker-compose.yml always needs a password.
  out.env.POSTGRES_PASSWORD = generateSecret(24);
  out.secrets.push(out.env.POSTGRES_PASSWORD);
  if (sdkPaths.has('mcp.requestState.secret')) {
    // Signs the state of multi-round requests; every instance of the server must share it.
    out.env.MCP_REQUEST_STATE_SECRET = generateSecret();
    out.secrets.push(out.env.MCP_REQUEST_STATE_SECRET);
  }
  if (sdkPaths.has('mcp.audit.anchors.key')) {
    // Signs the audit trail's anchors (config/production.yaml turns the trail on).
    out.env.MCP_AUDIT_ANCHOR_KEY = generateSecret();
    out.secrets.push(out.env.MCP_AUDIT_ANCHOR_KEY);
  }
  if (answers.auth) {
    // A bearer token for the server's own clients (webServer.auth.permanentServerTokens).
    out.env.AUTH_PERMANENT_SERVER_TOKENS = generateSecret();
    out.secrets.push(out.env.AUTH_PERMANENT_SERVER_TOKENS);
    if (sdkPaths.has('webServer.metrics.token')) {
      // The scrape endpoint is not open either: Prometheus sends this bearer token.
      out.env.METRICS_TOKEN = generateSecret();
      out.secrets.push(out.env.METRICS_TOKEN);
    }
  }
  if (answers.database === 'postgres') {
    out.env.DATABASE_URL = answers.databaseUrl;
    out.secrets.push(answers.databaseUrl);
  }
  return out;
}

/** The answers a feature that is not available forces back to "off". */
export function unavailableChoices(answers: Partial<Answers>, available: ReadonlySet<FeatureId>): string[] {
  const wrong: string[] = [];
  if (answers.auth && !available.has('auth')) wrong.push('auth');
  if (answers.database && answers.database !== 'none' && !available.has('database')) wrong.push(`database "${answers.database}"`);
  if (answers.consul && !available.has('consul')) wrong.push('consul');
  return wrong;
}
