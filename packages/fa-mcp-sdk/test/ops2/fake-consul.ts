/**
 * A loopback stand-in for the Consul agent HTTP API: the endpoints the
 * `consul` client calls for registration and discovery, backed by a map, and a
 * record of every request received. `restart()` forgets every registration, as
 * an agent without persistent state does after a restart; `down` makes every
 * call fail with 500.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  token?: string;
}

export interface FakeServiceEntry {
  ID: string;
  Service: string;
  Tags: string[];
  Meta: Record<string, string>;
  Address: string;
  Port: number;
  passing: boolean;
}

export class FakeConsul {
  readonly requests: RecordedRequest[] = [];
  readonly services = new Map<string, FakeServiceEntry>();
  down = false;
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    const app = express();
    app.use(express.json({ type: () => true }));
    app.use((req, res, next) => {
      const token = req.get('x-consul-token');
      this.requests.push({ method: req.method, path: req.path, query: { ...req.query }, body: req.body, ...(token ? { token } : {}) });
      if (this.down) return res.status(500).send('agent unavailable');
      next();
    });
    app.put('/v1/agent/service/register', (req, res) => {
      const b = req.body as { ID?: string; Name: string; Tags?: string[]; Meta?: Record<string, string>; Address?: string; Port?: number };
      const id = b.ID ?? b.Name;
      this.services.set(id, { ID: id, Service: b.Name, Tags: b.Tags ?? [], Meta: b.Meta ?? {}, Address: b.Address ?? '', Port: b.Port ?? 0, passing: true });
      res.status(200).send('');
    });
    app.put('/v1/agent/service/deregister/:id', (req, res) => {
      this.services.delete(req.params.id);
      res.status(200).send('');
    });
    app.get('/v1/agent/services', (_req, res) => {
      res.json(Object.fromEntries([...this.services.values()].map((s) => [s.ID, { ID: s.ID, Service: s.Service, Tags: s.Tags, Meta: s.Meta, Address: s.Address, Port: s.Port }])));
    });
    app.get('/v1/health/service/:name', (req, res) => {
      const passingOnly = req.query.passing !== undefined;
      const tag = typeof req.query.tag === 'string' ? req.query.tag : undefined;
      res.json(
        [...this.services.values()]
          .filter((s) => s.Service === req.params.name && (!passingOnly || s.passing) && (!tag || s.Tags.includes(tag)))
          .map((s) => ({ Node: { Node: 'node-1', Address: '10.0.0.9' }, Service: { ID: s.ID, Service: s.Service, Tags: s.Tags, Meta: s.Meta, Address: s.Address, Port: s.Port }, Checks: [] })),
      );
    });
    app.get('/v1/catalog/service/:name', (req, res) => {
      res.json(
        [...this.services.values()]
          .filter((s) => s.Service === req.params.name)
          .map((s) => ({ Node: 'node-1', Address: '10.0.0.9', ServiceID: s.ID, ServiceName: s.Service, ServiceTags: s.Tags, ServiceMeta: s.Meta, ServiceAddress: s.Address, ServicePort: s.Port })),
      );
    });
    app.use((_req, res) => res.status(404).send('not implemented by the fake agent'));
    this.server = createServer(app);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** The agent restarted without persistent state: every registration is gone. */
  restart(): void {
    this.services.clear();
  }

  calls(method: string, pathPrefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }
}
