/** Minted resources in memory: one process, lost on restart, bounded in count and bytes. */
import type { IResourceStore, IResourceStoreOptions, IStoredResource } from './resource-store.js';

export class InMemoryResourceStore implements IResourceStore {
  /** In insertion order, so the first entry is the oldest. */
  private readonly byId = new Map<string, IStoredResource>();
  private bytes = 0;

  constructor(private readonly opts: IResourceStoreOptions) {}

  async put(resource: IStoredResource): Promise<void> {
    this.remove(resource.id);
    this.byId.set(resource.id, { ...resource });
    this.bytes += resource.size;
    this.sweepSync(Date.now());
    for (const [id] of this.byId) {
      if (this.byId.size <= this.opts.maxResources && this.bytes <= this.opts.maxBytes) break;
      if (id === resource.id) break; // the newest stays
      this.remove(id);
    }
  }

  async get(id: string, now = Date.now()): Promise<IStoredResource | undefined> {
    const r = this.byId.get(id);
    return r && r.expiresAt > now ? { ...r } : undefined;
  }

  async delete(id: string): Promise<boolean> {
    return this.remove(id);
  }

  async sweep(now = Date.now()): Promise<number> {
    return this.sweepSync(now);
  }

  async close(): Promise<void> {
    this.byId.clear();
    this.bytes = 0;
  }

  private sweepSync(now: number): number {
    let removed = 0;
    for (const [id, r] of this.byId) {
      if (r.expiresAt <= now && this.remove(id)) removed++;
    }
    return removed;
  }

  private remove(id: string): boolean {
    const r = this.byId.get(id);
    if (!r) return false;
    this.byId.delete(id);
    this.bytes -= r.size;
    return true;
  }
}
