/**
 * The library's pino logger factory.
 *
 * - JSON lines in production; human-readable output (pino-pretty used as a
 *   synchronous in-process stream, never a worker transport, loaded with the first
 *   line: ops/pretty-stream.ts) when `format` is 'pretty', or 'auto' with
 *   NODE_ENV=development. pino-pretty is an optional peer: missing, 'pretty' stops
 *   the start with the install command and 'auto' writes JSON lines after one
 *   warning that says so.
 * - Writes to fd 1 by default. The stdio transport passes fd 2, because stdout
 *   belongs to the JSON-RPC stream there.
 * - Known secret fields are censored with pino `redact` at the top level and up
 *   to three levels deep. For arbitrary payloads use `maskSecrets()` first.
 * - The password of a `scheme://user:password@host` URL is masked in every
 *   string of every line: the message and its arguments, every field at any
 *   depth, child bindings and serialized errors (ops/mask-secrets.ts).
 */
import { isatty } from 'node:tty';
import pino from 'pino';
import { OPTIONAL_PARTS } from '../core/optional-package.js';
import { maskUrlCredentials, maskUrlCredentialsDeep } from './mask-secrets.js';
import { lazyPrettyStream } from './pretty-stream.js';

export type Logger = pino.Logger;

export type LogFormat = 'auto' | 'json' | 'pretty';

export interface CreateLoggerOptions {
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  level: string;
  format: LogFormat;
  nodeEnv: string;
  /** Logged as the `name` field of every line. */
  name: string;
  /** A stream, or a file descriptor. Default: 1 (stdout). */
  destination?: NodeJS.WritableStream | number;
}

const CENSOR = '***';

/** Property names whose values are never logged, wherever they sit. */
const SECRET_FIELDS = [
  'password',
  'passwd',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'secret',
  'clientSecret',
  'client_secret',
  'apiKey',
  'api_key',
  'privateKey',
  'private_key',
  'authorization',
  'cookie',
] as const;

/** Header names (lower case, as node delivers them) that carry credentials. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'] as const;

/** Wildcard prefixes: '' (top level), '*.' (one level down), and so on. */
const DEPTH_PREFIXES = ['', '*.', '*.*.', '*.*.*.'] as const;

/** The pino redact paths, built once from the lists above. */
export const REDACT_PATHS: readonly string[] = buildRedactPaths();

function buildRedactPaths(): string[] {
  const paths = new Set<string>();
  for (const prefix of DEPTH_PREFIXES) {
    for (const field of SECRET_FIELDS) paths.add(`${prefix}${field}`);
    for (const header of SECRET_HEADERS) {
      paths.add(`${prefix}headers["${header}"]`);
    }
  }
  // Explicit request/response shapes, deeper than the wildcards reach.
  for (const header of SECRET_HEADERS) {
    paths.add(`req.headers["${header}"]`);
    paths.add(`res.headers["${header}"]`);
    paths.add(`*.req.headers["${header}"]`);
    paths.add(`*.res.headers["${header}"]`);
  }
  return [...paths];
}

/** Whether the given options ask for pretty output. */
export function usePrettyFormat(format: LogFormat, nodeEnv: string): boolean {
  return format === 'pretty' || (format === 'auto' && nodeEnv === 'development');
}

export function createLogger(opts: CreateLoggerOptions): Logger {
  const destination = opts.destination ?? 1;
  const options: pino.LoggerOptions = {
    name: opts.name,
    level: opts.level,
    redact: { paths: [...REDACT_PATHS], censor: CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: {
      logMethod(args, method) {
        // An error logged alone: pino takes its message as the line's message.
        const [first, second] = args as unknown[];
        if (first instanceof Error && typeof second !== 'string' && first.message.includes('://')) {
          return method.call(this, first, maskUrlCredentials(first.message));
        }
        // The message and its format arguments (a leading object is the formatters' below).
        if (args.some((a) => typeof a === 'string' && a.includes('://'))) {
          return method.apply(this, args.map((a: unknown) => (typeof a === 'string' ? maskUrlCredentials(a) : a)) as Parameters<pino.LogFn>);
        }
        return method.apply(this, args);
      },
    },
    formatters: {
      log: (object) => maskUrlCredentialsDeep(object),
      bindings: (bindings) => maskUrlCredentialsDeep(bindings),
    },
    // pino's serialized error is not a plain object: spread into one, so its strings are walked.
    serializers: { err: (err: Error) => maskUrlCredentialsDeep({ ...pino.stdSerializers.err(err) }) },
  };

  const pretty = usePrettyFormat(opts.format, opts.nodeEnv)
    ? lazyPrettyStream(opts.format, {
        destination,
        sync: true,
        colorize: typeof destination === 'number' && isatty(destination),
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      })
    : undefined;
  if (pretty) return maskingChildBindings(pino(options, pretty));

  const stream =
    typeof destination === 'number' ? pino.destination({ dest: destination, sync: true }) : destination;
  const logger = maskingChildBindings(pino(options, stream));
  if (usePrettyFormat(opts.format, opts.nodeEnv)) logger.warn({}, `pretty logs (logger.format: auto, NODE_ENV=development) need pino-pretty, not installed: JSON lines instead (npm i -D pino-pretty@${OPTIONAL_PARTS.prettyLogs.packages[0][1]})`);
  return logger;
}

/**
 * pino serializes a child's bindings once, at `child()`, past the bindings
 * formatter (which it keeps for the root's own). Children are created from
 * their parent's prototype chain, so this one wrapper covers every descendant.
 */
function maskingChildBindings(logger: Logger): Logger {
  const child = logger.child;
  logger.child = function maskedChild(this: Logger, bindings, childOptions) {
    return child.call(this, maskUrlCredentialsDeep(bindings), childOptions);
  } as Logger['child'];
  return logger;
}
