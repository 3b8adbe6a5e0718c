/**
 * While a stdio server speaks JSON-RPC on the process's stdout, a stray
 * `console.log` breaks the client's stream: the methods of the global console
 * write to stderr instead (`mcp.stdio.consoleToStderr`, on by default). Every
 * method is routed to one console on stderr (what went to stderr still does,
 * and `console.group` indents them alike), and the originals come back when
 * the server stops (a method replaced by someone else meanwhile is left as it
 * is). Only the global console: a write to `process.stdout` itself is not
 * caught.
 */
import { Console } from 'node:console';

type ConsoleMethod = (...args: unknown[]) => void;
type ConsoleTable = Record<string, ConsoleMethod>;

/** Routes the global console's methods to stderr; returns what puts them back. */
export function divertConsoleToStderr(target: Console = console): () => void {
  const onStderr = new Console({ stdout: process.stderr, stderr: process.stderr }) as unknown as ConsoleTable;
  // The global console's methods, as a table (Console has no index signature).
  const table = target as unknown as ConsoleTable;
  const replaced = new Map<string, { original: ConsoleMethod; diverted: ConsoleMethod }>();
  for (const name of Object.keys(table)) {
    const original = table[name];
    const method = onStderr[name];
    if (typeof original !== 'function' || typeof method !== 'function') continue;
    const diverted: ConsoleMethod = (...args) => method.apply(onStderr, args);
    replaced.set(name, { original, diverted });
    table[name] = diverted;
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    for (const [name, { original, diverted }] of replaced) if (table[name] === diverted) table[name] = original;
  };
}
