/**
 * The parts of prom-client the server's metrics use, each required from its own file: the
 * package's index also loads the Pushgateway (node:http, node:https, zlib), Summary (t-digest)
 * and the cluster aggregator, which a start would compile for nothing (issue 24: cold start).
 * The files are the ones the index requires, so the classes are the same objects a consumer's
 * `import { Counter } from 'prom-client'` gets (test/ops/prom-client-lib.test.ts holds that).
 */
import type * as PromClient from 'prom-client';
import { requireCjs } from '../core/require-cjs.js';

export interface PromMetricClasses {
  Registry: typeof PromClient.Registry;
  Counter: typeof PromClient.Counter;
  Gauge: typeof PromClient.Gauge;
  Histogram: typeof PromClient.Histogram;
}

const lib = <T>(file: string): T => requireCjs<T>(`prom-client/lib/${file}.js`);

export function promMetricClasses(): PromMetricClasses {
  return {
    Registry: lib<typeof PromClient.Registry>('registry'),
    Counter: lib<typeof PromClient.Counter>('counter'),
    Gauge: lib<typeof PromClient.Gauge>('gauge'),
    Histogram: lib<typeof PromClient.Histogram>('histogram'),
  };
}

/** prom-client's collectDefaultMetrics (process and Node.js runtime metrics). */
export function collectDefaultMetrics(): typeof PromClient.collectDefaultMetrics {
  return lib<typeof PromClient.collectDefaultMetrics>('defaultMetrics');
}
