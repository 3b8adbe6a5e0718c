/**
 * The JSON Lines sink: one record per line, appended to a file (created with its folder when
 * missing), or written to the process's stderr (or stdout, never on a stdio server: audit-config.ts).
 * A batch is one write; in sync mode one fdatasync follows, so a record acknowledged is on disk.
 * A failed write is cut back off the file, so the file never keeps half a batch.
 */
import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { AuditRecord } from './audit-record.js';
import type { AuditSink, ChainHead } from './audit-sink.js';
import { readTailLines } from './jsonl-tail.js';

class StreamSink implements AuditSink {
  constructor(
    readonly name: string,
    private readonly stream: Writable,
  ) {}

  append(_records: readonly AuditRecord[], lines: readonly string[]): Promise<void> {
    return new Promise((done, fail) => {
      this.stream.write(`${lines.join('\n')}\n`, (err) => (err ? fail(err) : done()));
    });
  }

  lastHead(): Promise<ChainHead | undefined> {
    return Promise.resolve(undefined);
  }

  check(): Promise<void> {
    return this.stream.destroyed || !this.stream.writable ? Promise.reject(new Error(`${this.name} is closed`)) : Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

class FileSink implements AuditSink {
  readonly name: string;
  /** Bytes of the file that hold whole batches (a failed write is cut back to it). */
  private size: number;
  private broken: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
    size: number,
  ) {
    this.name = `jsonl:${path}`;
    this.size = size;
  }

  async append(_records: readonly AuditRecord[], lines: readonly string[], durable: boolean): Promise<void> {
    if (this.broken) throw this.broken;
    const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    try {
      await this.handle.writeFile(data);
      if (durable) await this.handle.datasync();
      this.size += data.length;
    } catch (err) {
      // Nothing of a failed batch stays: the file ends where the last whole batch ended.
      await this.handle.truncate(this.size).catch((cut: unknown) => {
        this.broken = new Error(`${this.name}: a failed write could not be cut off (${(cut as Error).message}); the file needs a look`);
      });
      throw err;
    }
  }

  async lastHead(instance: string): Promise<ChainHead | undefined> {
    for await (const line of readTailLines(this.handle, this.size)) {
      let record: Partial<AuditRecord>;
      try {
        record = JSON.parse(line) as Partial<AuditRecord>;
      } catch {
        continue;
      }
      if (record.instance === instance && typeof record.chain === 'string' && typeof record.seq === 'number' && typeof record.hash === 'string') {
        return { chain: record.chain, seq: record.seq, hash: record.hash };
      }
    }
    return undefined;
  }

  async check(): Promise<void> {
    if (this.broken) throw this.broken;
    await this.handle.stat();
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** `stderr`, `stdout`, or a file path (relative to `cwd`). */
export async function createJsonlSink(target: string, cwd: string): Promise<AuditSink> {
  if (target === 'stderr') return new StreamSink('jsonl:stderr', process.stderr);
  if (target === 'stdout') return new StreamSink('jsonl:stdout', process.stdout);
  const path = resolve(cwd, target);
  mkdirSync(dirname(path), { recursive: true });
  const handle = await open(path, 'a+');
  const { size } = await handle.stat();
  return new FileSink(path, handle, size);
}
