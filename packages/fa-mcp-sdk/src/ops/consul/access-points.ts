/**
 * Resolves other services by name through Consul (`consul.accessPoints`): the
 * healthy instances of a service as `{ host, port }`, cached for `cacheTtlMs`.
 * When Consul cannot be reached, the last known list is returned (stale
 * beats nothing); with no list at all the error is an UpstreamUnavailableError.
 */
import type { ConsulAccessPoint } from '../../config/sections/consul.js';
import { UpstreamUnavailableError } from '../../core/errors.js';
import type { ConsulClient } from './consul-client.js';

export interface ServiceAddress {
  host: string;
  port: number;
  id?: string;
  tags?: string[];
  meta?: Record<string, string>;
}

interface HealthEntry {
  Node?: { Address?: string };
  Service?: { ID?: string; Address?: string; Port?: number; Tags?: string[]; Meta?: Record<string, string> };
}

export class AccessPoints {
  private readonly cache = new Map<string, { at: number; list: ServiceAddress[] }>();
  private readonly inflight = new Map<string, Promise<ServiceAddress[]>>();
  private next = 0;

  constructor(
    private readonly client: ConsulClient,
    private readonly points: Record<string, ConsulAccessPoint>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every healthy instance of the access point named `key` (or of a service of that name). */
  async resolveAll(key: string): Promise<ServiceAddress[]> {
    const point = this.points[key] ?? { service: key };
    const cacheKey = JSON.stringify([point.service, point.tag ?? '', point.dc ?? '', point.passingOnly !== false]);
    const hit = this.cache.get(cacheKey);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.list;
    let pending = this.inflight.get(cacheKey);
    if (!pending) {
      pending = this.fetch(point).finally(() => this.inflight.delete(cacheKey));
      this.inflight.set(cacheKey, pending);
    }
    try {
      const list = await pending;
      this.cache.set(cacheKey, { at: this.now(), list });
      return list;
    } catch (err) {
      if (hit) return hit.list;
      throw new UpstreamUnavailableError(`Cannot resolve service "${point.service}" through Consul`, { service: point.service, reason: err instanceof Error ? err.message : String(err) });
    }
  }

  /** One instance, round-robin over the healthy ones. */
  async resolve(key: string): Promise<ServiceAddress> {
    const list = await this.resolveAll(key);
    if (list.length === 0) throw new UpstreamUnavailableError(`No healthy instance of "${this.points[key]?.service ?? key}"`, { service: this.points[key]?.service ?? key });
    const pick = list[this.next++ % list.length] as ServiceAddress;
    return pick;
  }

  /** Forgets cached lists (all, or one access point's). */
  invalidate(): void {
    this.cache.clear();
  }

  private async fetch(point: ConsulAccessPoint): Promise<ServiceAddress[]> {
    const filter = { service: point.service, ...(point.tag ? { tag: point.tag } : {}), ...(point.dc ? { dc: point.dc } : {}) };
    if (point.passingOnly === false) {
      // Every registered instance, healthy or not: the catalog.
      const nodes = (await this.client.catalog.service.nodes(filter)) as CatalogEntry[];
      return (nodes ?? [])
        .map((n) => address(n.ServiceAddress || n.Address, n.ServicePort, n.ServiceID, n.ServiceTags, n.ServiceMeta))
        .filter((a) => a.host !== '' && a.port > 0);
    }
    const entries = (await this.client.health.service({ ...filter, passing: true })) as HealthEntry[];
    return (entries ?? [])
      .map((e) => address(e.Service?.Address || e.Node?.Address, e.Service?.Port, e.Service?.ID, e.Service?.Tags, e.Service?.Meta))
      .filter((a) => a.host !== '' && a.port > 0);
  }
}

interface CatalogEntry {
  Address?: string;
  ServiceAddress?: string;
  ServicePort?: number;
  ServiceID?: string;
  ServiceTags?: string[];
  ServiceMeta?: Record<string, string>;
}

function address(host: string | undefined, port: number | undefined, id?: string, tags?: string[], meta?: Record<string, string>): ServiceAddress {
  return { host: host ?? '', port: port ?? 0, ...(id ? { id } : {}), ...(tags ? { tags } : {}), ...(meta ? { meta } : {}) };
}
