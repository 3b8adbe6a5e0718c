/**
 * The optional packages of fa-mcp-sdk (its optional peer dependencies) that a chosen feature
 * needs, added to the generated package.json: a PostgreSQL database needs the pg client, the
 * embedded database pg and PGlite, Consul registration the consul client. test/feature-packages.test.ts keeps the versions equal to
 * fa-mcp-sdk's peers.
 */
import type { Answers } from './answers.js';

export const FEATURE_PACKAGES = {
  postgres: { pg: '8.23.1' },
  embeddedDb: { pg: '8.23.1', '@electric-sql/pglite': '0.5.14', '@electric-sql/pglite-socket': '0.2.17' },
  consul: { consul: '2.0.1' },
} as const;

export function featurePackages(answers: Pick<Answers, 'database' | 'consul'>): Record<string, string> {
  return {
    ...(answers.database === 'embedded' ? FEATURE_PACKAGES.embeddedDb : {}),
    ...(answers.database === 'postgres' ? FEATURE_PACKAGES.postgres : {}),
    ...(answers.consul ? FEATURE_PACKAGES.consul : {}),
  };
}

/** The rendered package.json with the packages of the chosen features among its dependencies. */
export function withFeaturePackages(packageJson: string, answers: Pick<Answers, 'database' | 'consul'>): string {
  const extra = featurePackages(answers);
  if (Object.keys(extra).length === 0) return packageJson;
  const pkg = JSON.parse(packageJson) as { dependencies?: Record<string, string> };
  pkg.dependencies = Object.fromEntries(Object.entries({ ...pkg.dependencies, ...extra }).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
