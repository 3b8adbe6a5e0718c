/**
 * The package's entry points as package.json "exports" declares them: `fa-mcp-sdk` and each
 * subpath, with the source file tsup builds it from (`./dist/<p>.js` is built from `src/<p>.ts`).
 * Tests that must cover every entry point read the list here, so a new subpath is covered too.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PKG = fileURLToPath(new URL('../../', import.meta.url));

export interface EntryPoint {
  /** What a consumer imports: `fa-mcp-sdk`, `fa-mcp-sdk/testing`, … */
  entry: string;
  /** The built module path without extension, relative to dist/ and src/: `index`, `testing/index`, … */
  path: string;
  /** The source file, relative to the package: `src/testing/index.ts`. */
  source: string;
}

interface ExportTarget {
  import?: { types?: string; default?: string };
}

export function entryPoints(): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(`${PKG}package.json`, 'utf8')) as { name: string; exports: Record<string, ExportTarget | string> };
  return Object.entries(pkg.exports)
    .filter(([key]) => key !== './package.json')
    .map(([key, target]) => {
      const built = typeof target === 'string' ? target : target.import?.default;
      const path = /^\.\/dist\/(.+)\.js$/.exec(built ?? '')?.[1];
      if (!path) throw new Error(`package.json exports["${key}"] does not point at ./dist/<path>.js: ${JSON.stringify(target)}`);
      return { entry: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, path, source: `src/${path}.ts` };
    });
}
