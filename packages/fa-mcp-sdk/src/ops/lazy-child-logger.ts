/**
 * A request-bound logger that makes its pino child only when something is
 * logged: most requests log nothing, and a child with redaction is costly to
 * build on every one of them.
 */
import type { CoreLogger } from '../core/core.js';

export function lazyChildLogger(parent: CoreLogger, bindings: Record<string, unknown>): CoreLogger {
  let child: CoreLogger | undefined;
  const real = () => (child ??= parent.child(bindings));
  return {
    debug: (obj, msg) => real().debug(obj, msg),
    info: (obj, msg) => real().info(obj, msg),
    warn: (obj, msg) => real().warn(obj, msg),
    error: (obj, msg) => real().error(obj, msg),
    child: (more) => real().child(more),
  };
}
