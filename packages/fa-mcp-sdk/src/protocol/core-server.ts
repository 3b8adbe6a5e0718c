/**
 * The SDK's McpServer as the framework builds it: connecting it to a
 * transport connects it to the wire adapter of that transport
 * (wire-adapter.ts) with the instance's filters, whoever connects it (the
 * framework for a session or a legacy SSE stream, the SDK's entries for a
 * 2026-07-28 request or a stdio connection). `connect` is the SDK's public
 * method, extended here; nothing of the instance is reassigned.
 */
import { McpServer, type Transport } from '@modelcontextprotocol/server';
import { WireAdapter, type WireFilter } from './wire-adapter.js';

export class CoreServer extends McpServer {
  /** The filters of the instance's connection, in order (server-factory.ts); fixed once it connects. */
  readonly wire: WireFilter[] = [];

  override connect(transport: Transport): Promise<void> {
    return super.connect(new WireAdapter(transport, this.wire));
  }
}
