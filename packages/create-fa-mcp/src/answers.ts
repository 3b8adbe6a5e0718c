/**
 * The answers that shape a generated project: their types, defaults and validation. Flags,
 * a --config file and the interactive prompts all end up here, so every path checks the same way.
 */
import { basename } from 'node:path';
import validateNpmName from 'validate-npm-package-name';
import { PACKAGE_MANAGERS, type PackageManager } from './package-manager.js';

export const TRANSPORTS = ['http', 'stdio'] as const;
export type Transport = (typeof TRANSPORTS)[number];
export const DATABASES = ['none', 'embedded', 'postgres'] as const;
export type Database = (typeof DATABASES)[number];

export interface Answers {
  /** npm package name of the project. */
  name: string;
  description: string;
  /** Human-readable name (serverInfo.title). */
  productName: string;
  port: number;
  transport: Transport;
  author: string;
  auth: boolean;
  database: Database;
  /** PostgreSQL URL when `database` is `postgres`. */
  databaseUrl: string;
  consul: boolean;
  install: boolean;
  packageManager: PackageManager;
}

export type AnswerKey = keyof Answers;
export const ANSWER_KEYS: readonly AnswerKey[] = [
  'name', 'description', 'productName', 'port', 'transport', 'author',
  'auth', 'database', 'databaseUrl', 'consul', 'install', 'packageManager',
];

export class AnswerError extends Error {
  override name = 'AnswerError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** A package name derived from a folder name: `My Server` -> `my-server`. */
export function nameFromDir(dir: string): string {
  const slug = basename(dir).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return slug || 'fa-mcp-server';
}

/** `my-mcp-server` -> `My MCP Server` (known acronyms upper-cased). */
export function titleFromName(name: string): string {
  const bare = name.replace(/^@[^/]+\//, '');
  const upper = new Set(['mcp', 'api', 'ai', 'db', 'sql', 'http', 'ldap', 'jwt']);
  return bare
    .split(/[-_.~]+/)
    .filter(Boolean)
    .map((w) => (upper.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

export function defaultAnswers(targetDir: string, packageManager: PackageManager, interactive: boolean): Answers {
  const name = nameFromDir(targetDir);
  return {
    name,
    description: 'An MCP server built on fa-mcp-sdk.',
    productName: titleFromName(name),
    port: 3000,
    transport: 'http',
    author: '',
    auth: false,
    database: 'none',
    databaseUrl: '',
    consul: false,
    install: interactive,
    packageManager,
  };
}

const oneLine = (label: string, max: number) => (value: string) =>
  /[\r\n]/.test(value)
    ? `${label} must be one line`
    : value.length > max
      ? `${label} must be at most ${max} characters`
      : /\{\{|\}\}/.test(value)
        ? `${label} must not contain {{ or }}`
        : undefined;

/** One validator per text answer: an error message, or undefined when the value is fine. */
export const validators = {
  name(value: string): string | undefined {
    const result = validateNpmName(value);
    if (result.validForNewPackages) return undefined;
    return `"${value}" is not a valid npm package name: ${[...(result.errors ?? []), ...(result.warnings ?? [])].join('; ')}`;
  },
  description: oneLine('The description', 300),
  productName(value: string): string | undefined {
    return value.trim() === '' ? 'The product name must not be empty' : oneLine('The product name', 100)(value);
  },
  author: oneLine('The author', 200),
  port(value: string): string | undefined {
    const n = Number(value);
    return /^\d+$/.test(value.trim()) && Number.isInteger(n) && n >= 1 && n <= 65535 ? undefined : `The port must be an integer from 1 to 65535 (got "${value}")`;
  },
  databaseUrl(value: string): string | undefined {
    try {
      const url = new URL(value);
      return url.protocol === 'postgres:' || url.protocol === 'postgresql:' ? undefined : 'The database URL must start with postgres:// or postgresql://';
    } catch {
      return 'The database URL must be a URL such as postgres://user:password@host:5432/db';
    }
  },
};

function oneOf<T extends string>(key: string, allowed: readonly T[], value: unknown, problems: string[]): T | undefined {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  problems.push(`${key} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  return undefined;
}

function bool(key: string, value: unknown, problems: string[]): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'yes') return true;
  if (value === 'false' || value === 'no') return false;
  problems.push(`${key} must be true or false (got ${JSON.stringify(value)})`);
  return undefined;
}

/**
 * Checks partial answers from flags or a --config file (values of any type) and returns them
 * typed. Unknown keys and bad values are collected into one AnswerError.
 */
export function parsePartialAnswers(input: Record<string, unknown>, origin: string): Partial<Answers> {
  const problems: string[] = [];
  const out: Partial<Answers> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const at = `${origin}: ${key}`;
    switch (key) {
      case 'name':
      case 'description':
      case 'productName':
      case 'author':
      case 'databaseUrl': {
        if (typeof value !== 'string') {
          problems.push(`${at} must be a string`);
          break;
        }
        const error = validators[key](value);
        if (error) problems.push(`${at}: ${error}`);
        else out[key] = value;
        break;
      }
      case 'port': {
        const error = validators.port(String(value));
        if (error) problems.push(`${at}: ${error}`);
        else out.port = Number(value);
        break;
      }
      case 'transport':
        out.transport = oneOf(at, TRANSPORTS, value, problems);
        break;
      case 'database':
        out.database = oneOf(at, DATABASES, value, problems);
        break;
      case 'packageManager':
        out.packageManager = oneOf(at, PACKAGE_MANAGERS, value, problems);
        break;
      case 'auth':
      case 'consul':
      case 'install':
        out[key] = bool(at, value, problems);
        break;
      default:
        problems.push(`${origin}: unknown key "${key}" (known: ${ANSWER_KEYS.join(', ')})`);
    }
  }
  if (problems.length) throw new AnswerError(problems);
  for (const key of Object.keys(out) as AnswerKey[]) if (out[key] === undefined) delete out[key];
  return out;
}

/** Cross-field checks on a complete set of answers. */
export function checkAnswers(answers: Answers): void {
  const problems: string[] = [];
  if (answers.database === 'postgres' && validators.databaseUrl(answers.databaseUrl)) {
    problems.push(`databaseUrl: ${validators.databaseUrl(answers.databaseUrl)} (needed with database "postgres")`);
  }
  if (answers.database !== 'postgres' && answers.databaseUrl) {
    problems.push('databaseUrl is only used with database "postgres"');
  }
  if (problems.length) throw new AnswerError(problems);
}
