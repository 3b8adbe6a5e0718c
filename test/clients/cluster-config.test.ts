/**
 * The HAProxy configuration page 12 shows is the one scripts/cluster/cluster.mjs writes (for
 * `npm run cluster` and the cluster test), and the template's deploy/cluster/haproxy.cfg makes the
 * same keep-alive promise to clients; both log every request and every health check change.
 * No services needed: text only, and `haproxy -c` where it is installed (cluster.test.ts and
 * cluster-run.test.ts run it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_KEEP_ALIVE, checkHaproxyConfig, findHaproxy, haproxyConfig } from '../../scripts/cluster/cluster.mjs';
import { isNotable, parseHaproxyLine } from '../../scripts/cluster/haproxy-log.mjs';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'FA-MCP-SDK-DOC', '12-load-balancing.md'), 'utf8');
const template = readFileSync(join(root, 'cli-template', 'deploy', 'cluster', 'haproxy.cfg'), 'utf8');

/** The lines of a configuration that say something (no comments, no blank lines). */
const lines = (cfg: string) => cfg.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

describe('the HAProxy configurations', () => {
  it("page 12's configuration is the one cluster.mjs writes", () => {
    const shown = /```\n(global\n[\s\S]*?)```/.exec(page)?.[1];
    expect(shown, 'page 12 shows a configuration from `global` on').toBeDefined();
    const servers = [...(shown ?? '').matchAll(/server (\S+) 127\.0\.0\.1:(\d+) check/g)].map((m) => ({ name: m[1] as string, port: Number(m[2]) }));
    const listenPort = Number(/bind 127\.0\.0\.1:(\d+)/.exec(shown ?? '')?.[1]);
    const checkMs = Number(/inter (\d+)ms/.exec(shown ?? '')?.[1]);
    const written = haproxyConfig({ listenPort, servers, checkMs });
    expect(servers.length).toBeGreaterThan(1);
    expect(lines(shown ?? '')).toEqual(lines(written));
  });

  it('both log every request (normal ones too) and every health check change, to stdout', () => {
    const written = haproxyConfig({ listenPort: 8080, servers: [{ name: 'a', port: 1 }] });
    for (const cfg of [written, template]) {
      const body = lines(cfg);
      expect(body).toEqual(expect.arrayContaining(['log stdout format raw local0 info', 'log global', 'option httplog', 'option log-health-checks']));
      expect(body.indexOf('log stdout format raw local0 info')).toBeLessThan(body.indexOf('defaults'));
      expect(body.filter((l) => /dontlog/.test(l))).toEqual([]);
    }
  });

  it.runIf(findHaproxy() !== undefined)('haproxy -c accepts the configuration cluster.mjs writes', () => {
    const check = checkHaproxyConfig(haproxyConfig({ listenPort: 8080, servers: [{ name: 'mcp1', port: 41001 }, { name: 'mcp2', port: 41002 }] }));
    expect(check.output).not.toMatch(/\[(WARNING|ALERT)\]/);
    expect(check.ok).toBe(true);
  });
});

describe("HAProxy's log lines", () => {
  // As HAProxy 2.6 wrote them for `npm run cluster` (a kill -9 mid-call, no instance left, a clean request).
  const broken = '127.0.0.1:44822 [07/Dec/2026:02:04:13.192] mcp instances/mcp2 0/0/0/-1/691 502 209 - - SH-- 6/6/5/1/0 0/0 "POST /mcp HTTP/1.1"';
  const streamCut = '127.0.0.1:44830 [07/Dec/2026:02:04:13.192] mcp instances/mcp2 0/0/0/3/850 200 1912 - - SD-- 6/6/5/1/0 0/0 "POST /mcp HTTP/1.1"';
  const noServer = '127.0.0.1:39114 [07/Dec/2026:02:04:21.901] mcp instances/<NOSRV> 0/-1/-1/-1/0 503 217 - - SC-- 1/1/0/0/0 0/0 "POST /mcp HTTP/1.1"';
  const clean = '127.0.0.1:39120 [07/Dec/2026:02:04:22.001] mcp instances/mcp1 0/0/0/2/2 200 512 - - ---- 1/1/0/0/0 0/0 "POST /mcp HTTP/1.1"';
  const closedByClient = '127.0.0.1:39122 [07/Dec/2026:02:04:22.001] mcp instances/mcp1 0/0/0/2/9000 200 512 - - CD-- 1/1/0/0/0 0/0 "GET /mcp HTTP/1.1"';
  const gaveUp = '127.0.0.1:39124 [07/Dec/2026:02:04:22.001] mcp instances/mcp1 0/0/0/-1/30000 -1 0 - - CH-- 1/1/0/0/0 0/0 "POST /mcp HTTP/1.1"';
  const down = 'Server instances/mcp2 is DOWN. 2 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.';

  it('reads a request line: server, status, termination state, and whether it failed', () => {
    expect(parseHaproxyLine(broken)).toMatchObject({ kind: 'request', server: 'mcp2', status: 502, termination: 'SH--', request: 'POST /mcp HTTP/1.1', failed: true });
    expect(parseHaproxyLine(streamCut)).toMatchObject({ status: 200, termination: 'SD--', failed: true });
    expect(parseHaproxyLine(noServer)).toMatchObject({ server: '<NOSRV>', status: 503, failed: true });
    expect(parseHaproxyLine(gaveUp)).toMatchObject({ status: -1, termination: 'CH--', failed: true });
    expect(parseHaproxyLine(clean)).toMatchObject({ status: 200, termination: '----', failed: false });
    expect(parseHaproxyLine(closedByClient)).toMatchObject({ termination: 'CD--', failed: false });
    expect(parseHaproxyLine(down)).toEqual({ kind: 'event', line: down });
  });

  it('the terminal shows failures and events, not clean requests or the stderr copies of events', () => {
    expect([broken, streamCut, noServer, gaveUp, down].every(isNotable)).toBe(true);
    expect([clean, closedByClient, '', `[WARNING]  (29643) : ${down}`].some(isNotable)).toBe(false);
  });

  it('both tell clients a keep-alive time below the one HAProxy keeps an idle client connection', () => {
    for (const cfg of [haproxyConfig({ listenPort: 8080, servers: [{ name: 'a', port: 1 }] }), template]) {
      const idle = Number(/timeout http-keep-alive (\d+)s/.exec(cfg)?.[1]);
      const told = Number(/http-response set-header Keep-Alive timeout=(\d+)/.exec(cfg)?.[1]);
      expect(idle).toBe(CLIENT_KEEP_ALIVE.idleSec);
      expect(told).toBe(CLIENT_KEEP_ALIVE.advertisedSec);
      expect(told).toBeLessThan(idle);
    }
  });
});
