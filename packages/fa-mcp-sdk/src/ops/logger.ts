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
 * - Secrets are masked by the one rule of config/mask.ts, in every line: a field that
 *   names a credential (password, token, secret, apiKey, authorization, cookie …) and
 *   every value of a `headers` map at any depth, and inside every string the userinfo of
 *   URLs, Bearer/Basic credentials and `password=…`-style pairs: the message and its
 *   arguments, fields, child bindings and serialized errors. The caller's objects are
 *   never changed; a line with nothing to mask is written as it is.
 */
import { isatty } from 'node:tty';
import pino from 'pino';
import { OPTIONAL_PARTS } from '../core/optional-package.js';
import { maskedView, maskSecretsInString } from '../config/mask.js';
import type { LogFormat } from './log-format.js';
import { lazyPrettyStream } from './pretty-stream.js';

export type Logger = pino.Logger;

export type { LogFormat } from './log-format.js';

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

/** Strings that may hold a credential of rule 2 (a URL with userinfo, an auth scheme, a name=value pair). */
const MAYBE_CREDENTIAL = /:\/\/|bearer|basic|=|":/i;

/** Whether the given options ask for pretty output. */
export function usePrettyFormat(format: LogFormat, nodeEnv: string): boolean {
  return format === 'pretty' || (format === 'auto' && nodeEnv === 'development');
}

export function createLogger(opts: CreateLoggerOptions): Logger {
  const destination = opts.destination ?? 1;
  const options: pino.LoggerOptions = {
    name: opts.name,
    level: opts.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: {
      logMethod(args, method) {
        // An error logged alone: pino takes its message as the line's message.
        const [first, second] = args as unknown[];
        if (first instanceof Error && typeof second !== 'string' && MAYBE_CREDENTIAL.test(first.message)) {
          return method.call(this, first, maskSecretsInString(first.message));
        }
        // The message and its format arguments (a leading object is the formatters' below).
        if (args.some((a) => typeof a === 'string' && MAYBE_CREDENTIAL.test(a))) {
          return method.apply(this, args.map((a: unknown) => (typeof a === 'string' ? maskSecretsInString(a) : a)) as Parameters<pino.LogFn>);
        }
        return method.apply(this, args);
      },
    },
    formatters: {
      log: (object) => maskedView(object),
      bindings: (bindings) => maskedView(bindings),
    },
    // pino's serialized error is not a plain object: spread into one, so its strings are walked.
    serializers: { err: (err: Error) => maskedView({ ...pino.stdSerializers.err(err) }) },
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
    return child.call(this, maskedView(bindings), childOptions);
  } as Logger['child'];
  return logger;
}
