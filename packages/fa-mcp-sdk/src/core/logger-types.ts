/**
 * The logging surface the core needs; a pino logger satisfies it. Its own module so that what
 * the core passes around (request context, telemetry, deprecation warnings) names the logger
 * without importing core.ts, which wires all of them (no import cycle, types included).
 */
export interface CoreLogger {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  child(bindings: Record<string, unknown>): CoreLogger;
}
