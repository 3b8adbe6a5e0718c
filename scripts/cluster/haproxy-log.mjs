// HAProxy's log, as the cluster's configuration writes it (haproxyConfig() in cluster.mjs: `log
// stdout format raw`, `option httplog`, `option log-health-checks`, every request logged): what a
// line says, which lines are failures, and following the file HAProxy writes as it grows.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';

// "127.0.0.1:41234 [07/Dec/2026:01:44:55.692] mcp instances/mcp2 0/0/0/1/1 200 1234 - - ---- 1/1/0/0/0 0/0 "POST /mcp HTTP/1.1""
const HTTPLOG = /^(\S+) \[([^\]]+)\] (\S+) (\S+)\/(\S+) (\S+) (-?\d+) (\+?\d+) \S+ \S+ (\S{4}) \S+ \S+ "(.*)"$/;

/**
 * One line of the log: a request (`option httplog`) with its status, termination state (4
 * characters, `----` for a clean end) and whether it failed; or an event (health check, server
 * UP/DOWN, no server available, warnings).
 */
export function parseHaproxyLine(line) {
  const m = HTTPLOG.exec(line);
  if (!m) return { kind: 'event', line };
  const status = Number(m[7]);
  const termination = m[9];
  return { kind: 'request', line, client: m[1], backend: m[4], server: m[5], timers: m[6], status, termination, request: m[10], failed: isFailure(status, termination) };
}

/**
 * A request failed when it was answered 5xx, or ended on anything but a clean close or the client's
 * own doing: termination states start with who ended it (S server, P proxy, R resource, I internal,
 * D down, K killed, c/s client/server timeout; `-` nobody). A client that gave up waiting for the
 * answer (CH, CQ, CT) is a failure too; a client that closed a stream it was reading (CD) or sent
 * nothing (CR) is not.
 */
function isFailure(status, termination) {
  if (status >= 500) return true;
  const [who, when] = termination;
  if (who === '-') return false;
  if (who === 'C') return when === 'H' || when === 'Q' || when === 'T';
  return true;
}

/**
 * Lines worth a person's attention in a terminal: failed requests, and logged events (health checks
 * changing a server's state, a server going DOWN or UP, no server left). In the foreground (-db)
 * HAProxy also prints its warnings and alerts to stderr with a "[WARNING] (pid) :" prefix: the same
 * events a second time, and startup notices; those stay in the file.
 */
export function isNotable(line) {
  if (!line.trim() || /^\[(NOTICE|WARNING|ALERT)\]/.test(line)) return false;
  const parsed = parseHaproxyLine(line);
  return parsed.kind === 'event' || parsed.failed;
}

/**
 * Calls `onLine` for every complete line appended to `file` from `offset` on, checking every
 * `everyMs`; answers stop() (which reads what is left first). A file that does not exist yet is waited for.
 */
export function followFile(file, onLine, { everyMs = 200, offset = 0 } = {}) {
  let at = offset;
  let partial = '';
  const buf = Buffer.alloc(64 * 1024);
  const read = () => {
    if (!existsSync(file)) return;
    const fd = openSync(file, 'r');
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, at);
        if (n <= 0) break;
        at += n;
        partial += buf.toString('utf8', 0, n);
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) onLine(line);
      }
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(read, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      read();
    },
  };
}
