/**
 * A generated project declares the optional fa-mcp-sdk packages its features need (PostgreSQL:
 * pg; the embedded database: pg and PGlite; Consul registration: consul) at the versions fa-mcp-sdk declares as its
 * optional peers, and the template declares what every project uses (Swagger UI for /docs; the
 * MCP client and pretty logs for development), with Scarf's install-time analytics off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FEATURE_PACKAGES } from '../src/feature-packages.js';
import { scaffold } from '../src/scaffold.js';
import { DOCS_DIR, sampleAnswers, SDK_ROOT, TEMPLATE_DIR, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(tmp.cleanup);
const sdkManifest = JSON.parse(readFileSync(join(SDK_ROOT, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
type Manifest = { dependencies: Record<string, string>; devDependencies: Record<string, string>; scarfSettings?: { enabled?: boolean } };

async function generate(name: string, answers: Partial<ReturnType<typeof sampleAnswers>>): Promise<Manifest> {
  const dir = join(tmp.dir, name);
  await scaffold({ templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR, targetDir: dir, answers: { ...sampleAnswers(), ...answers } });
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

describe('the packages a generated project declares', () => {
  it('are optional peers of fa-mcp-sdk, at the versions it declares', () => {
    const template = JSON.parse(readFileSync(join(TEMPLATE_DIR, 'package.json'), 'utf8').replace(/\{\{[^}]*\}\}/g, 'x')) as Manifest;
    const declared = { ...FEATURE_PACKAGES.embeddedDb, ...FEATURE_PACKAGES.consul, ...template.dependencies, ...template.devDependencies };
    for (const name of ['pg', '@electric-sql/pglite', '@electric-sql/pglite-socket', 'consul', 'swagger-ui-dist', '@modelcontextprotocol/client', 'pino-pretty']) {
      expect(sdkManifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(`^${declared[name as keyof typeof declared]}`, name).toBe(sdkManifest.peerDependencies[name]);
    }
    expect(template.dependencies['swagger-ui-dist']).toBeDefined();
    expect(template.devDependencies['@modelcontextprotocol/client']).toBeDefined();
    expect(template.devDependencies['pino-pretty']).toBeDefined();
    expect(template.scarfSettings?.enabled).toBe(false);
  });

  it('follow the chosen features', async () => {
    const plain = await generate('plain', { database: 'none', consul: false });
    expect(Object.keys(plain.dependencies).sort()).toEqual(['fa-mcp-sdk', 'swagger-ui-dist']);
    const full = await generate('full', { database: 'embedded', consul: true });
    expect(full.dependencies).toMatchObject({ ...FEATURE_PACKAGES.embeddedDb, ...FEATURE_PACKAGES.consul });
    const server = await generate('server-db', { database: 'postgres', databaseUrl: 'postgres://u:p@localhost:5432/db', consul: false });
    expect(server.dependencies['@electric-sql/pglite']).toBeUndefined();
    expect(server.dependencies).toMatchObject(FEATURE_PACKAGES.postgres);
    expect(plain.dependencies.pg).toBeUndefined();
  });
});
