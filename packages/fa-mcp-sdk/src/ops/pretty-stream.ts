/**
 * The human-readable log stream (pino-pretty, an optional peer), built with the first line it
 * writes: pino-pretty and its formatting stack cost a start tens of milliseconds, and a server
 * that logs nothing at start (level warn or silent, a stdio server under an MCP client) would
 * pay them before its first answer (issue 24: cold start). Whether the package is installed is
 * decided at start, as before: `require.resolve` finds it without loading it.
 */
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import { isMissing, OPTIONAL_PARTS, requireOptional } from '../core/optional-package.js';
import type { LogFormat } from './log-format.js';

/** What pino writes to: a line at a time, and the `message` events it emits at creation. */
export interface LogStream {
  write(line: string): unknown;
  emit(event: string, message: unknown): unknown;
}

export type PrettyOptions = Parameters<typeof PinoPretty>[0];

const requireHere = () => createRequire(typeof __filename === 'string' ? __filename : import.meta.url);

/**
 * A stream that loads pino-pretty and builds its stream on the first write. Undefined when
 * `format` is 'auto' and pino-pretty is not installed; with 'pretty' that throws the
 * MissingPackageError that names the install command.
 */
export function lazyPrettyStream(format: LogFormat, options: PrettyOptions): LogStream | undefined {
  const require = requireHere();
  try {
    requireOptional('prettyLogs', () => require.resolve('pino-pretty'));
  } catch (err) {
    if (format === 'auto' && isMissing(OPTIONAL_PARTS.prettyLogs, (err as Error).cause)) return undefined;
    throw err;
  }
  let inner: ReturnType<typeof PinoPretty> | undefined;
  // pino announces its levels and message key at creation (PINO_CONFIG); the real stream gets it when built
  const messages: unknown[] = [];
  const real = (): ReturnType<typeof PinoPretty> => {
    if (inner) return inner;
    const pinoPretty = requireOptional('prettyLogs', () => require('pino-pretty') as typeof PinoPretty);
    inner = pinoPretty(options);
    for (const message of messages.splice(0)) inner.emit('message', message);
    return inner;
  };
  return {
    write: (line) => real().write(line),
    emit: (event, message) => (inner ? inner.emit(event, message) : event === 'message' && messages.push(message)),
  };
}
