/**
 * `--sdk <version|path|tarball>`: where the generated project's fa-mcp-sdk comes from, for a team
 * that scaffolds from a checkout, a packed tarball or a private registry's version. A version is
 * written into package.json as is; a tarball or a checkout is vendored (vendor-sdk.ts) and
 * depended on by a path relative to the project.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AnswerError } from './answers.js';

export type SdkSource =
  /** A version or range of the registry the project installs from. */
  | { kind: 'version'; spec: string }
  /** A packed fa-mcp-sdk (.tgz), copied into the project. */
  | { kind: 'tarball'; path: string }
  /** A built fa-mcp-sdk folder (packages/fa-mcp-sdk of a checkout), packed into the project. */
  | { kind: 'checkout'; path: string };

const VERSION_OR_RANGE = /^(latest|next|[~^]?\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?)$/;

export function sdkSource(value: string, cwd: string): SdkSource {
  const path = resolve(cwd, value);
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) {
      if (!/\.(tgz|tar\.gz)$/.test(path)) throw new AnswerError([`--sdk ${value}: ${path} is not a packed tarball (.tgz)`]);
      return { kind: 'tarball', path };
    }
    const pkg = join(path, 'package.json');
    const name = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name : undefined;
    if (name !== 'fa-mcp-sdk') throw new AnswerError([`--sdk ${value}: ${path} is not the fa-mcp-sdk package (its package.json names ${name ?? 'nothing'})`]);
    if (!existsSync(join(path, 'dist', 'index.js'))) {
      throw new AnswerError([`--sdk ${value}: ${path} is not built (no dist/index.js): build it first (pnpm --filter fa-mcp-sdk run build in its repository)`]);
    }
    return { kind: 'checkout', path };
  }
  if (VERSION_OR_RANGE.test(value)) return { kind: 'version', spec: value };
  throw new AnswerError([`--sdk ${value}: neither an existing folder or tarball nor a version (e.g. 0.1.0, ^0.1.0)`]);
}

/** The rendered package.json with fa-mcp-sdk set to `spec`. */
export function withSdkDependency(packageJson: string, spec: string): string {
  const pkg = JSON.parse(packageJson) as { dependencies?: Record<string, string> };
  pkg.dependencies = { ...pkg.dependencies, 'fa-mcp-sdk': spec };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The fa-mcp-sdk range the template's package.json declares (what the project depends on without --sdk). */
export function templateSdkRange(templateDir: string): string {
  const text = readFileSync(join(templateDir, 'package.json'), 'utf8');
  return /"fa-mcp-sdk":\s*"([^"]+)"/.exec(text)?.[1] ?? 'latest';
}
