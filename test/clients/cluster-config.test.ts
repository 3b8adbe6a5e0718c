/**
 * The HAProxy configuration page 12 shows is the one scripts/cluster/cluster.mjs writes (for
 * `npm run cluster` and the cluster test), and the template's deploy/cluster/haproxy.cfg makes the
 * same keep-alive promise to clients. No services needed: text only (cluster.test.ts runs it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_KEEP_ALIVE, haproxyConfig } from '../../scripts/cluster/cluster.mjs';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'FA-MCP-SDK-DOC', '12-load-balancing.md'), 'utf8');
const template = readFileSync(join(root, 'cli-template', 'deploy', 'cluster', 'haproxy.cfg'), 'utf8');

/** The lines of a configuration that say something (no comments, no blank lines). */
const lines = (cfg: string) => cfg.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

describe('the HAProxy configurations', () => {
  it("page 12's configuration is the one cluster.mjs writes", () => {
    const shown = /```\n(defaults\n[\s\S]*?)```/.exec(page)?.[1];
    expect(shown, 'page 12 shows a configuration from `defaults` on').toBeDefined();
    const servers = [...(shown ?? '').matchAll(/server (\S+) 127\.0\.0\.1:(\d+) check/g)].map((m) => ({ name: m[1] as string, port: Number(m[2]) }));
    const listenPort = Number(/bind 127\.0\.0\.1:(\d+)/.exec(shown ?? '')?.[1]);
    const checkMs = Number(/inter (\d+)ms/.exec(shown ?? '')?.[1]);
    const written = haproxyConfig({ listenPort, servers, checkMs });
    expect(servers.length).toBeGreaterThan(1);
    expect(lines(shown ?? '')).toEqual(lines(written.slice(written.indexOf('defaults'))));
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
