/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) running in
 * this process, served over the PostgreSQL wire protocol on a free loopback
 * port by pglite-socket, so the same `pg` pool code talks to it as to a real
 * server. Loaded on first use only: a server with a real database never loads it, and
 * the packages are optional peers (core/optional-package.ts).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import { loadOptional } from '../core/optional-package.js';

export interface EmbeddedOptions {
  /** Folder of the data files; empty or undefined: in memory. */
  dataDir?: string;
  /** Base for a relative dataDir. */
  cwd?: string;
  /** Extensions to load (`vector`, or a PGlite contrib module such as `pg_trgm`, `uuid-ossp`). */
  extensions: readonly string[];
  /** Connections the socket server accepts at once. */
  maxConnections: number;
}

export interface EmbeddedPostgres {
  host: string;
  port: number;
  user: string;
  database: string;
  stop(): Promise<void>;
}

/** The extension objects PGlite expects, keyed by name. */
type ExtensionMap = Record<string, unknown>;

async function loadExtensions(names: readonly string[]): Promise<ExtensionMap> {
  const out: ExtensionMap = {};
  for (const name of names) {
    if (name === 'plpgsql') continue;
    if (name === 'vector') {
      out.vector = (await loadOptional('embeddedVector', () => import('@electric-sql/pglite-pgvector'))).vector;
      continue;
    }
    const moduleName = name.replace(/-/g, '_');
    if (!/^[a-z_][a-z0-9_]*$/.test(moduleName)) throw new Error(`Invalid extension name "${name}"`);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(`@electric-sql/pglite/contrib/${moduleName}`)) as Record<string, unknown>;
    } catch {
      throw new Error(`Extension "${name}" is not available in the embedded database (PGlite); use vector or a PGlite contrib extension`);
    }
    out[moduleName] = mod[moduleName];
  }
  return out;
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const [{ PGlite }, { PGLiteSocketServer }] = await loadOptional('embeddedDb', () =>
    Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]),
  );
  const dataDir = opts.dataDir ? resolve(opts.cwd ?? process.cwd(), opts.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const extensions = await loadExtensions(opts.extensions);
  // PGlite's option type is generic over its extension objects; ours are loaded by name at run time.
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions } as PGliteOptions);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: opts.maxConnections });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  const address = server.getServerConn();
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  let stopping: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    stop() {
      stopping ??= (async () => {
        await server.stop();
        await db.close();
      })();
      return stopping;
    },
  };
}
