/**
 * `fa-mcp config validate | print | docs`: check a configuration folder the way the server will
 * read it, print the effective configuration with secrets masked and the layer each value came
 * from, and render the configuration reference page from the schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { buildSchema, ConfigError, leafPaths, loadConfig, maskConfig, renderConfigReference, type LoadedConfig } from '../../config/index.js';
import { action, CliUsageError, EXIT_CHECK_FAILED, EXIT_OK, printErr, printOut, type CliIo } from '../cli-io.js';

interface ConfigOptions {
  cwd?: string;
  configDir?: string;
  nodeEnv?: string;
  extraSchema?: string;
}

async function readExtraSchema(io: CliIo, file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (!file) return undefined;
  const path = resolve(io.cwd, file);
  try {
    if (path.endsWith('.json')) return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const mod = (await import(pathToFileURL(path).href)) as { default?: unknown; extraSchema?: unknown };
    return (mod.extraSchema ?? mod.default) as Record<string, unknown>;
  } catch (err) {
    throw new CliUsageError(`cannot read --extra-schema ${path}: ${(err as Error).message}`);
  }
}

async function load(io: CliIo, opts: ConfigOptions): Promise<LoadedConfig & { cwd: string; extra?: Record<string, unknown> }> {
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  const extra = await readExtraSchema(io, opts.extraSchema);
  const loaded = loadConfig({
    cwd,
    ...(opts.configDir ? { configDir: opts.configDir } : {}),
    ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}),
    ...(extra ? { extraSchema: extra } : {}),
  });
  return { ...loaded, cwd, ...(extra ? { extra } : {}) };
}

function describeFailure(err: unknown): string | undefined {
  if (!(err instanceof ConfigError)) return undefined;
  return err.message;
}

export async function configValidate(io: CliIo, opts: ConfigOptions): Promise<number> {
  try {
    const loaded = await load(io, opts);
    const files = [...new Set(Object.values(loaded.sources).filter((s) => s !== 'default' && !s.startsWith('env:')))];
    printOut(io, `configuration OK (NODE_ENV=${loaded.nodeEnv}; layers: defaults${files.map((f) => `, ${relative(loaded.cwd, f)}`).join('')}${Object.values(loaded.sources).some((s) => s.startsWith('env:')) ? ', environment' : ''})`);
    return EXIT_OK;
  } catch (err) {
    const text = describeFailure(err);
    if (!text) throw err;
    printErr(io, text);
    return EXIT_CHECK_FAILED;
  }
}

function valueAt(config: unknown, path: string): unknown {
  let cur = config;
  for (const part of path.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export async function configPrint(io: CliIo, opts: ConfigOptions & { json?: boolean }): Promise<number> {
  let loaded;
  try {
    loaded = await load(io, opts);
  } catch (err) {
    const text = describeFailure(err);
    if (!text) throw err;
    printErr(io, text);
    return EXIT_CHECK_FAILED;
  }
  const schema = buildSchema(loaded.extra);
  const masked = maskConfig(loaded.config, schema);
  const show = (layer: string) => (layer.startsWith('/') ? relative(loaded.cwd, layer) || layer : layer);
  const sources = Object.fromEntries(Object.entries(loaded.sources).map(([k, v]) => [k, show(v)]));
  if (opts.json) {
    printOut(io, JSON.stringify({ nodeEnv: loaded.nodeEnv, config: masked, sources }, null, 2));
    return EXIT_OK;
  }
  const declared = leafPaths(schema);
  const extra = Object.keys(sources).filter((k) => !declared.includes(k)).sort();
  const rows = [...declared, ...extra].map((path) => {
    const value = valueAt(masked, path);
    return { path, value: value === undefined ? '(unset)' : JSON.stringify(value), layer: sources[path] ?? 'default' };
  });
  const width = Math.min(48, Math.max(...rows.map((r) => r.path.length)));
  const valueWidth = Math.min(40, Math.max(...rows.map((r) => r.value.length)));
  printOut(io, `# effective configuration, NODE_ENV=${loaded.nodeEnv}; secrets masked; "# layer" = where the value came from`);
  printOut(io, rows.map((r) => `${r.path.padEnd(width)} = ${r.value.padEnd(valueWidth)}  # ${r.layer}`).join('\n'));
  return EXIT_OK;
}

export async function configDocs(io: CliIo, opts: ConfigOptions & { out?: string; check?: string; title?: string }): Promise<number> {
  const extra = await readExtraSchema(io, opts.extraSchema);
  const page = renderConfigReference(buildSchema(extra), {
    ...(opts.title ? { title: opts.title } : {}),
    preamble: '> Generated from the configuration schema by `fa-mcp config docs`; do not edit by hand.',
  });
  if (opts.check) {
    const file = resolve(io.cwd, opts.check);
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // a missing page is out of date too
    }
    if (current === page) {
      printOut(io, `${file} is up to date`);
      return EXIT_OK;
    }
    printErr(io, `${file} is out of date: run \`fa-mcp config docs --out ${opts.check}\``);
    return EXIT_CHECK_FAILED;
  }
  if (opts.out) {
    const file = resolve(io.cwd, opts.out);
    writeFileSync(file, page);
    printOut(io, `wrote ${file}`);
  } else {
    printOut(io, page);
  }
  return EXIT_OK;
}

export function registerConfigCommand(program: Command, io: () => CliIo): Command {
  const config = program.command('config').description('Validate, print and document the configuration');
  const common = (cmd: Command) =>
    cmd
      .option('--cwd <dir>', 'project folder (default: the current one)')
      .option('--config-dir <dir>', 'configuration folder (default <cwd>/config)')
      .option('--node-env <name>', 'selects config/<name>.yaml (default NODE_ENV or development)')
      .option('--extra-schema <file>', "JSON Schema of your own top-level keys (.json, or a module exporting it as default or extraSchema)");
  common(config.command('validate').description('Exit 1 listing every invalid or unknown key, with its layer')).action(
    action(io, (ctx, opts: ConfigOptions) => configValidate(ctx, opts)),
  );
  common(config.command('print').description('Print the effective configuration, secrets masked, with the layer of each value'))
    .option('--json', 'print { nodeEnv, config, sources } as JSON')
    .action(action(io, (ctx, opts: ConfigOptions & { json?: boolean }) => configPrint(ctx, opts)));
  config
    .command('docs')
    .description('Render the configuration reference (Markdown) from the schema')
    .option('-o, --out <file>', 'write the page to a file instead of stdout')
    .option('--check <file>', 'exit 1 when the file differs from what would be rendered')
    .option('--title <title>', 'page title (default "Configuration reference")')
    .option('--extra-schema <file>', 'include your own keys')
    .action(action(io, (ctx, opts: ConfigOptions & { out?: string; check?: string; title?: string }) => configDocs(ctx, opts)));
  return config;
}
