/**
 * FA-MCP-SDK-DOC/11-public-contract.md lists exactly what the entry points export: every exported
 * name (values and types) has a row on the page, and every name on the page is exported. Names
 * are read from the sources syntactically (no type check), following `export *`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PAGE = fileURLToPath(new URL('../../../../FA-MCP-SDK-DOC/11-public-contract.md', import.meta.url));

function moduleFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a module exports, by reading its export statements. */
function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      const specifier = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      if (!clause && specifier) for (const name of exportedNames(moduleFile(file, specifier), seen)) names.add(name);
      else if (clause && ts.isNamespaceExport(clause)) names.add(clause.name.text);
      else if (clause) for (const element of clause.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const decl of statement.declarationList.declarations) if (ts.isIdentifier(decl.name)) names.add(decl.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      exported(statement) && statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** The backticked names in the first column of the tables between two headings of the page. */
function documentedNames(page: string, from: string, to: string): Set<string> {
  const start = page.indexOf(from);
  const end = page.indexOf(to, start + from.length);
  if (start < 0 || end < 0) throw new Error(`11-public-contract.md lost its headings "${from}" / "${to}"`);
  const names = new Set<string>();
  for (const line of page.slice(start, end).split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const [, name] of first.matchAll(/`([A-Za-z_$][\w$]*)`/g)) names.add(name as string);
  }
  return names;
}

const page = readFileSync(PAGE, 'utf8');
const ENTRIES = [
  { entry: 'fa-mcp-sdk', file: 'index.ts', from: '## 1. Exported names: `fa-mcp-sdk`', to: '## 2. Exported names' },
  { entry: 'fa-mcp-sdk/testing', file: 'testing/index.ts', from: '## 2. Exported names: `fa-mcp-sdk/testing`', to: '### The `fa-mcp` command' },
  { entry: 'fa-mcp-sdk/db', file: 'db/index.ts', from: '### Database', to: '## 2. Exported names' },
];

describe('11-public-contract lists every exported name, and only those', () => {
  for (const { entry, file, from, to } of ENTRIES) {
    const code = exportedNames(join(SRC, file));
    const docs = documentedNames(page, from, to);

    it(`every name exported by ${entry} has a row under "${from}"`, () => {
      const missing = [...code].filter((n) => !docs.has(n)).sort();
      expect(missing, `add a row (| \`Name\` | kind | purpose |) for each to FA-MCP-SDK-DOC/11-public-contract.md under "${from}"`).toEqual([]);
    });

    it(`every name under "${from}" is exported by ${entry}`, () => {
      const stale = [...docs].filter((n) => !code.has(n)).sort();
      expect(stale, `these names are on FA-MCP-SDK-DOC/11-public-contract.md under "${from}" but ${entry} (src/${file}) does not export them: export them or remove the rows`).toEqual([]);
    });
  }
});
