/**
 * `--sdk <version|path|tarball>`: what the generated package.json depends on for fa-mcp-sdk, for a
 * team that scaffolds from a checkout, a packed tarball or a private registry's version.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AnswerError } from './answers.js';

const VERSION_OR_RANGE = /^(latest|next|[~^]?\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?)$/;

export function sdkDependency(value: string, cwd: string): string {
  const path = resolve(cwd, value);
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) {
      const pkg = join(path, 'package.json');
      const name = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name : undefined;
      if (name !== 'fa-mcp-sdk') throw new AnswerError([`--sdk ${value}: ${path} is not the fa-mcp-sdk package (its package.json names ${name ?? 'nothing'})`]);
    } else if (!/\.(tgz|tar\.gz)$/.test(path)) {
      throw new AnswerError([`--sdk ${value}: ${path} is not a packed tarball (.tgz)`]);
    }
    return `file:${path}`;
  }
  if (VERSION_OR_RANGE.test(value)) return value;
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
