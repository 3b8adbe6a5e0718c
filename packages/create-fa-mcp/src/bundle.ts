/**
 * Where the published package keeps its template: `dist/template/project` (a copy of cli-template)
 * and `dist/template/FA-MCP-SDK-DOC`, both written by scripts/bundle-template.mjs at build time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkPathsFromConfigYaml, type SdkPaths } from './features.js';

export interface Bundle {
  templateDir: string;
  docsDir: string;
  /** Configuration paths of the fa-mcp-sdk release the template is made for. */
  sdkPaths: SdkPaths;
  version: string;
}

/** The configuration paths listed by a template's config/default.yaml (none when it has no such file). */
export function templateSdkPaths(templateDir: string): SdkPaths {
  const file = join(templateDir, 'config', 'default.yaml');
  return existsSync(file) ? sdkPathsFromConfigYaml(readFileSync(file, 'utf8')) : new Set();
}

/** `distDir`: the folder of the built CLI (dist/), which holds template/. */
export function locateBundle(distDir = dirname(fileURLToPath(import.meta.url))): Bundle {
  const templateDir = join(distDir, 'template', 'project');
  const docsDir = join(distDir, 'template', 'FA-MCP-SDK-DOC');
  if (!existsSync(templateDir) || !existsSync(docsDir)) {
    throw new Error(`create-fa-mcp: the bundled template is missing under ${join(distDir, 'template')}; build the package first (pnpm run build).`);
  }
  const pkg = JSON.parse(readFileSync(join(distDir, '..', 'package.json'), 'utf8')) as { version: string };
  return { templateDir, docsDir, sdkPaths: templateSdkPaths(templateDir), version: pkg.version };
}
