/** Types of haproxy-log.mjs, for the TypeScript tests that import it. */
export type HaproxyLine =
  | { kind: 'event'; line: string }
  | {
      kind: 'request';
      line: string;
      client: string;
      backend: string;
      server: string;
      timers: string;
      status: number;
      /** Four characters, `----` for a clean end. */
      termination: string;
      request: string;
      failed: boolean;
    };
export declare function parseHaproxyLine(line: string): HaproxyLine;
export declare function isNotable(line: string): boolean;
export declare function followFile(file: string, onLine: (line: string) => void, opts?: { everyMs?: number; offset?: number }): { stop(): void };
