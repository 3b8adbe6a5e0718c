/**
 * Helpers of the audit trail tests: a configuration, request drafts, a logger that keeps its
 * lines, a sink that can be held (to fill the queue) or made to fail, and reading a JSONL file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord, AuditRequestDraft } from '../../src/audit/audit-record.js';
import type { AuditSink, ChainHead } from '../../src/audit/audit-sink.js';
import type { AuditTrailOptions } from '../../src/audit/audit-trail.js';
import type { AuditConfig } from '../../src/config/sections/audit.js';
import type { CoreLogger } from '../../src/core/logger-types.js';

export const ANCHOR_KEY = 'test-anchor-key-0123456789abcdef0123456789';

export function auditConfig(over: Partial<AuditConfig> = {}, transportType: 'http' | 'stdio' = 'http'): AuditTrailOptions['config'] {
  return {
    transportType,
    audit: {
      sink: 'jsonl',
      file: 'stderr',
      mode: 'async',
      arguments: 'digest',
      database: 'main',
      instance: 'test-instance',
      retentionDays: 0,
      queueSize: 10_000,
      batchSize: 500,
      windowMs: 20,
      maxExtraBytes: 4096,
      otel: false,
      anchors: { key: '', intervalMs: 60_000 },
      ...over,
    },
  };
}

export function draft(i: number, over: Partial<AuditRequestDraft> = {}): AuditRequestDraft {
  return {
    requestId: `req-${i}`,
    era: '2025',
    transport: 'http',
    sessionId: 'session-1',
    principal: { subject: i % 2 === 0 ? 'alice' : 'bob', groups: ['staff'], scopes: ['tools:call'], authMode: 'jwt' },
    method: 'tools/call',
    target: { kind: 'tool', name: i % 3 === 0 ? 'delete_user' : 'get_sum' },
    outcome: { status: 'ok' },
    durationMs: 1.5,
    resultBytes: 42,
    arguments: { a: i, b: 2 },
    ...over,
  };
}

export interface LogLine {
  level: string;
  obj: unknown;
  msg: string | undefined;
}

export function recordingLogger(lines: LogLine[] = []): CoreLogger & { lines: LogLine[] } {
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  const logger = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

export const tempDir = () => mkdtempSync(join(tmpdir(), 'fa-mcp-audit-'));

export function readRecords(file: string): AuditRecord[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as AuditRecord);
}

/** A sink in memory that can hold appends until released, or fail them. */
export class ControlledSink implements AuditSink {
  readonly name = 'test:memory';
  readonly records: AuditRecord[] = [];
  readonly lines: string[] = [];
  appends = 0;
  durableAppends = 0;
  failWith: Error | undefined;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  private waiting: Array<() => void> = [];

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  /** Resolves once an append is waiting at the gate. */
  held(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async append(records: readonly AuditRecord[], lines: readonly string[], durable: boolean): Promise<void> {
    this.appends += 1;
    if (this.gate) {
      for (const w of this.waiting.splice(0)) w();
      await this.gate;
    }
    if (this.failWith) throw this.failWith;
    if (durable) this.durableAppends += 1;
    this.records.push(...records);
    this.lines.push(...lines);
  }

  lastHead(): Promise<ChainHead | undefined> {
    return Promise.resolve(undefined);
  }

  check(): Promise<void> {
    return this.failWith ? Promise.reject(this.failWith) : Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
