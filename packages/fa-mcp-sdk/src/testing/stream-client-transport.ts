/**
 * A client transport over a pair of streams: talks newline-delimited JSON-RPC
 * to a server started in the same process with `mcp.transportType: stdio`, so
 * tests exercise the real stdio server path without spawning a process.
 */
import type { Readable, Writable } from 'node:stream';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '../protocol/sdk-client.js';

export class StreamClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        this.onerror?.(err as Error);
        continue;
      }
      if (!message) break;
      this.onmessage?.(message);
    }
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('transport closed');
    this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.onclose?.();
  }
}
