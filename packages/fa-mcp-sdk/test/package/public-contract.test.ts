/**
 * FA-MCP-SDK-DOC/11-public-contract.md lists exactly what each entry point exports: every entry
 * point of package.json "exports" has its section on the page (and tsup builds it), every name an
 * entry point exports (values and types) has a row in that entry point's section, and every name
 * in a section is exported by that entry point. Each entry point is an explicit list (no
 * `export *`), and a name exported by two entry points is one and the same declaration. Names are
 * read from the sources syntactically (no type check).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entryPoints, PKG } from './entry-points.js';

const PAGE = fileURLToPath(new URL('../../../../FA-MCP-SDK-DOC/11-public-contract.md', import.meta.url));

function moduleFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) parsed.set(file, (source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)));
  return source;
}

const modifiers = (node: ts.Node) => (ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : []);
const exported = (node: ts.Node) => modifiers(node).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const specifierOf = (node: ts.ExportDeclaration | ts.ImportDeclaration) =>
  node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;

/** The names a declaration statement declares (function, class, interface, type, enum, variables). */
function declared(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  if (
    (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name
  ) {
    return [statement.name.text];
  }
  return [];
}

/** The names a module exports, by reading its export statements (following `export *`). */
function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      const specifier = specifierOf(statement);
      if (!clause && specifier) for (const name of exportedNames(moduleFile(file, specifier), seen)) names.add(name);
      else if (clause && ts.isNamespaceExport(clause)) names.add(clause.name.text);
      else if (clause) for (const element of clause.elements) names.add(element.name.text);
    } else if (exported(statement)) {
      for (const name of declared(statement)) names.add(name);
    }
  }
  return names;
}

/** Where an exported name is declared: `<file>#<name>`, following re-exports and imports. */
function origin(file: string, name: string, seen = new Set<string>()): string | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const source = parse(file);
  const local = (localName: string): string | undefined => {
    for (const statement of source.statements) {
      if (declared(statement).includes(localName)) return `${relative(PKG, file)}#${localName}`;
      if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)) {
        const specifier = specifierOf(statement);
        const element = statement.importClause.namedBindings.elements.find((e) => e.name.text === localName);
        if (element && specifier?.startsWith('.')) return origin(moduleFile(file, specifier), element.propertyName?.text ?? localName, seen);
      }
    }
    return undefined;
  };
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const specifier = specifierOf(statement);
      const clause = statement.exportClause;
      if (!clause && specifier) {
        const found = origin(moduleFile(file, specifier), name, seen);
        if (found) return found;
      } else if (clause && ts.isNamedExports(clause)) {
        const element = clause.elements.find((e) => e.name.text === name);
        if (!element) continue;
        const original = element.propertyName?.text ?? name;
        return specifier ? origin(moduleFile(file, specifier), original, seen) : local(original);
      }
    } else if (exported(statement) && declared(statement).includes(name)) {
      return `${relative(PKG, file)}#${name}`;
    }
  }
  return undefined;
}

interface Section {
  heading: string;
  text: string;
}

/**
 * The sections of the page that list an entry point: a `##` or `###` heading whose only code span
 * names the entry point (`## 1. Exported names: \`fa-mcp-sdk\``, `### \`fa-mcp-sdk/db\``), up
 * to the next heading of the same or a higher level.
 */
function entrySections(page: string): Map<string, Section> {
  const lines = page.split('\n');
  const sections = new Map<string, Section>();
  lines.forEach((line, i) => {
    const heading = /^(#{2,3}) [^`]*`(fa-mcp-sdk(?:\/[\w-]+)?)`\s*$/.exec(line);
    if (!heading) return;
    const level = (heading[1] as string).length;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^#{2,${level}} `).test(lines[end] as string)) end++;
    sections.set(heading[2] as string, { heading: line, text: lines.slice(i + 1, end).join('\n') });
  });
  return sections;
}

/** The backticked names in the first column of the tables of a section. */
function documentedNames(section: string): Set<string> {
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const [, name] of first.matchAll(/`([A-Za-z_$][\w$]*)`/g)) names.add(name as string);
  }
  return names;
}

const page = readFileSync(PAGE, 'utf8');
const ENTRIES = entryPoints();
const sections = entrySections(page);
const tsup = readFileSync(join(PKG, 'tsup.config.ts'), 'utf8');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('the entry points', () => {
  it('package.json lists fa-mcp-sdk and its subpaths, each built by tsup from src/<path>.ts', () => {
    expect(ENTRIES.map((e) => e.entry)).toEqual(expect.arrayContaining(['fa-mcp-sdk', 'fa-mcp-sdk/testing', 'fa-mcp-sdk/db']));
    for (const { entry, path, source } of ENTRIES) {
      expect(existsSync(join(PKG, source)), `${entry}: ${source} is missing`).toBe(true);
      const built = new RegExp(`['"]?${escape(path)}['"]?\\s*:\\s*['"]${escape(source)}['"]`);
      expect(tsup, `${entry}: add '${path}': '${source}' to the entries of packages/fa-mcp-sdk/tsup.config.ts`).toMatch(built);
    }
  });

  it('each has its section on 11-public-contract, and each section is an entry point', () => {
    expect([...sections.keys()].sort(), 'one heading per entry point, e.g. ### `fa-mcp-sdk/stores`').toEqual(ENTRIES.map((e) => e.entry).sort());
  });

  it.each(ENTRIES.map((e) => [e.entry, e.source]))('%s is an explicit list (no export *)', (_entry, source) => {
    const star = parse(join(PKG, source)).statements.filter((s) => ts.isExportDeclaration(s) && !s.exportClause);
    expect(star.map((s) => s.getText(parse(join(PKG, source)))), `name each export of ${source}`).toEqual([]);
  });

  it('a name exported by two entry points is the same declaration in both', () => {
    const homes = new Map<string, Map<string, string | undefined>>();
    for (const { entry, source } of ENTRIES) {
      const file = join(PKG, source);
      for (const name of exportedNames(file)) {
        const byEntry = homes.get(name) ?? new Map<string, string | undefined>();
        byEntry.set(entry, origin(file, name));
        homes.set(name, byEntry);
      }
    }
    const shared = [...homes].filter(([, byEntry]) => byEntry.size > 1);
    for (const [name, byEntry] of shared) {
      const declarations = new Set(byEntry.values());
      expect(declarations.has(undefined), `${name}: its declaration was not found`).toBe(false);
      expect([...declarations], `${name} means different things in ${[...byEntry.keys()].join(', ')}`).toHaveLength(1);
    }
  });
});

describe('11-public-contract lists every exported name, and only those', () => {
  for (const { entry, source } of ENTRIES) {
    const code = exportedNames(join(PKG, source));
    const section = sections.get(entry);
    const docs = documentedNames(section?.text ?? '');

    it(`every name exported by ${entry} has a row in its section`, () => {
      const missing = [...code].filter((n) => !docs.has(n)).sort();
      expect(missing, `add a row (| \`Name\` | kind | purpose |) for each to FA-MCP-SDK-DOC/11-public-contract.md under "${section?.heading ?? entry}"`).toEqual([]);
    });

    it(`every name in the section of ${entry} is exported by it`, () => {
      const stale = [...docs].filter((n) => !code.has(n)).sort();
      expect(stale, `these names are on FA-MCP-SDK-DOC/11-public-contract.md under "${section?.heading ?? entry}" but ${entry} (${source}) does not export them: export them or remove the rows`).toEqual([]);
    });
  }
});
