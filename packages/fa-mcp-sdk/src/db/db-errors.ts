/**
 * Maps what `pg` throws to the framework's error family: a database that cannot
 * be reached is an upstream outage (-32006, HTTP 503), a statement cancelled by
 * statement_timeout is a timeout (-32004). SQL errors (syntax, constraints) are
 * returned unchanged so a tool can read their `code`.
 */
import { TimeoutError, UpstreamUnavailableError } from '../core/errors.js';
import { isMcpError } from '../core/error-guards.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);

/** SQLSTATEs that mean "the server is not there for you": shutting down, full, login refused, no such database. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '28000', '28P01', '3D000']);

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Connection refused',
];

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `err` says the database cannot be reached (as opposed to a bad statement). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof UpstreamUnavailableError) return true;
  const code = codeOf(err);
  if (code && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  if (err instanceof AggregateError && err.errors.some(isConnectionError)) return true;
  return UNAVAILABLE_MESSAGES.some((m) => err.message.includes(m));
}

/** The error to throw to the caller of a query helper. */
export function toDbError(err: unknown, database: string): unknown {
  if (isMcpError(err)) return err;
  if (isConnectionError(err)) {
    const unavailable = new UpstreamUnavailableError(`Database "${database}" is unavailable`, { upstream: 'database', database });
    (unavailable as Error & { cause?: unknown }).cause = err;
    return unavailable;
  }
  if (codeOf(err) === '57014') {
    const timeout = new TimeoutError(`A statement on database "${database}" was cancelled (statement timeout)`, { database });
    (timeout as Error & { cause?: unknown }).cause = err;
    return timeout;
  }
  return err;
}
