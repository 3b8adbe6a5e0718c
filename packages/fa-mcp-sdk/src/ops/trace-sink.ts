/**
 * The JSON-lines trace sink (`mcp.debug.logFile`): one line per request and
 * per answer, for post-mortem analysis. Payloads pass through maskSecrets and
 * are cut to `maxEntryBytes` with a preview, so the file never holds a
 * credential or an unbounded blob. Writes are buffered and never block a request.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { CoreLogger } from '../core/core.js';
import { maskSecrets } from '../config/mask.js';

export interface TraceEvent {
  /** `request`, `response`, `notification`, or your own kind (handle.emitTrace). */
  kind: string;
  [field: string]: unknown;
}

export interface TraceSinkOptions {
  file: string;
  maxEntryBytes: number;
  logger: CoreLogger;
}

/** Masks secrets and caps the serialized size of one payload. */
export function capPayload(value: unknown, maxBytes: number): unknown {
  const masked = maskSecrets(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(masked);
  } catch {
    return '[Unserializable]';
  }
  if (text === undefined) return undefined;
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return masked;
  const preview = Buffer.from(text).subarray(0, Math.max(0, maxBytes - 128)).toString('utf8').replace(/\uFFFD+$/, '');
  return { truncated: true, bytes, preview };
}

export class TraceSink {
  private readonly stream: WriteStream;
  private failed = false;

  constructor(private readonly opts: TraceSinkOptions) {
    mkdirSync(dirname(opts.file), { recursive: true });
    this.stream = createWriteStream(opts.file, { flags: 'a' });
    this.stream.on('error', (err) => {
      if (!this.failed) opts.logger.warn({ err, file: opts.file }, 'trace sink: cannot write; tracing to file stops');
      this.failed = true;
    });
  }

  /** Writes one event; fields named like payloads (params, result, error, data) are masked and capped. */
  emit(event: TraceEvent): void {
    if (this.failed) return;
    const line: Record<string, unknown> = { ts: new Date().toISOString() };
    for (const [key, value] of Object.entries(event)) {
      line[key] = PAYLOAD_FIELDS.has(key) ? capPayload(value, this.opts.maxEntryBytes) : value;
    }
    this.stream.write(`${JSON.stringify(line)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stream.closed || this.stream.destroyed) return resolve();
      this.stream.end(() => resolve());
    });
  }
}

const PAYLOAD_FIELDS = new Set(['params', 'result', 'error', 'data']);
