/**
 * The interactive questions (@clack/prompts). Questions already answered by a flag are skipped;
 * features the bundled fa-mcp-sdk cannot configure are not asked. Ctrl-C at any question ends the
 * run before anything is written.
 */
import type { Readable, Writable } from 'node:stream';
import { cancel, confirm, isCancel, select, text } from '@clack/prompts';
import { titleFromName, validators, type Answers, type Database, type Transport } from './answers.js';
import type { FeatureId } from './features.js';
import { ScaffoldAbortedError } from './scaffold.js';

export interface PromptIo {
  input?: Readable;
  output?: Writable;
}

export function answered<T>(value: T, io: PromptIo): Exclude<T, symbol> {
  if (isCancel(value)) {
    cancel('Cancelled: nothing was written.', io);
    throw new ScaffoldAbortedError(true);
  }
  return value as Exclude<T, symbol>;
}

const check = (fn: (value: string) => string | undefined) => (value: string | undefined) => fn(value ?? '');

export async function askAnswers(
  preset: Partial<Answers>,
  defaults: Answers,
  available: ReadonlySet<FeatureId>,
  io: PromptIo = {},
  /** Asked right before the install question; `install: false` answers it (the registry lacks fa-mcp-sdk and the user chose to install later). */
  beforeInstall?: () => Promise<{ install?: boolean }>,
): Promise<Answers> {
  const a: Answers = { ...defaults, ...preset };
  const has = (key: keyof Answers) => preset[key] !== undefined;

  if (!has('name')) {
    a.name = answered(await text({ ...io, message: 'Project name (npm package name)', initialValue: defaults.name, validate: check(validators.name) }), io);
    if (!has('productName')) a.productName = titleFromName(a.name);
  }
  if (!has('description')) {
    a.description = answered(await text({ ...io, message: 'Description', initialValue: defaults.description, validate: check(validators.description) }), io);
  }
  if (!has('productName')) {
    a.productName = answered(await text({ ...io, message: 'Product name (shown to MCP clients)', initialValue: a.productName, validate: check(validators.productName) }), io);
  }
  if (!has('port')) {
    const port = answered(await text({ ...io, message: 'HTTP port', initialValue: String(defaults.port), validate: check(validators.port) }), io);
    a.port = Number(port);
  }
  if (!has('transport')) {
    a.transport = answered(
      await select<Transport>({
        ...io,
        message: 'Transport',
        initialValue: defaults.transport,
        options: [
          { value: 'http', label: 'HTTP', hint: 'Streamable HTTP on /mcp, legacy SSE, /health' },
          { value: 'stdio', label: 'stdio', hint: 'one client on stdin/stdout (the Docker image still serves HTTP)' },
        ],
      }),
      io,
    );
  }
  if (!has('auth') && available.has('auth')) {
    a.auth = answered(await confirm({ ...io, message: 'Require authentication? (a generated bearer token goes to .env)', initialValue: defaults.auth }), io);
  }
  if (!has('database') && available.has('database')) {
    a.database = answered(
      await select<Database>({
        ...io,
        message: 'Database',
        initialValue: defaults.database,
        options: [
          { value: 'none', label: 'None' },
          { value: 'embedded', label: 'Embedded PostgreSQL', hint: 'in process, no setup' },
          { value: 'postgres', label: 'PostgreSQL server', hint: 'by URL' },
        ],
      }),
      io,
    );
  }
  if (a.database === 'postgres' && !has('databaseUrl')) {
    a.databaseUrl = answered(await text({ ...io, message: 'PostgreSQL URL', placeholder: 'postgres://user:password@localhost:5432/db', validate: check(validators.databaseUrl) }), io);
  }
  if (!has('consul') && available.has('consul')) {
    a.consul = answered(await confirm({ ...io, message: 'Register in Consul?', initialValue: defaults.consul }), io);
  }
  if (!has('author')) {
    a.author = answered(await text({ ...io, message: 'Author', placeholder: 'Name <email>', defaultValue: '', validate: check(validators.author) }), io);
  }
  if (!has('install') && beforeInstall && (await beforeInstall()).install === false) {
    a.install = false;
  } else if (!has('install')) {
    a.install = answered(await confirm({ ...io, message: `Install dependencies with ${a.packageManager}?`, initialValue: true }), io);
  }
  return a;
}
