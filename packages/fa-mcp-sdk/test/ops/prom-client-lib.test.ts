/**
 * ops/prom-client-lib.ts requires prom-client's classes from their own files (its index also
 * loads the Pushgateway with node:http/https, Summary and the cluster aggregator): they must be the
 * classes of the package index, so a consumer's own `new Counter({ registers: [handle.metrics.registry] })`
 * lands in the server's registry and is scraped with the server's metrics.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { collectDefaultMetrics, promMetricClasses } from '../../src/ops/prom-client-lib.js';
import { ServerMetrics } from '../../src/ops/metrics.js';

const index = createRequire(import.meta.url)('prom-client') as typeof import('prom-client');

describe("prom-client's classes, file by file", () => {
  it('are the classes of the package index', () => {
    const classes = promMetricClasses();
    expect(classes.Registry).toBe(index.Registry);
    expect(classes.Counter).toBe(index.Counter);
    expect(classes.Gauge).toBe(index.Gauge);
    expect(classes.Histogram).toBe(index.Histogram);
    expect(collectDefaultMetrics()).toBe(index.collectDefaultMetrics);
  });

  it("serve the server's metrics, the process metrics and a consumer's own counter in one registry", async () => {
    const metrics = new ServerMetrics({ processMetrics: true });
    metrics.request('tools/list', 'ok');
    const mine = new index.Counter({ name: 'my_things_total', help: 'Things.', registers: [metrics.registry] });
    mine.inc(3);
    const { body } = await metrics.scrape();
    expect(body).toContain('mcp_requests_total{method="tools/list",outcome="ok"} 1');
    expect(body).toContain('my_things_total 3');
    expect(body).toContain('process_cpu_user_seconds_total');
  });
});
