/**
 * The SDK's own encoding, for the routes that answer without an SDK server
 * instance of the request's (the core routes, route.ts). One low-level server
 * per era and process, built with what every instance of that era is built
 * with (server-options.ts: implementation info, capabilities, cache hints),
 * encodes:
 *
 * - a result the hand-written encoders do not write (fast-call-results.ts):
 *   the result is handed to the instance as the answer of a request that
 *   mirrors the real one (its method and params, its 2026-07-28 envelope), and
 *   the instance checks and encodes it exactly as it would its own — the
 *   result schema, the `input_required` seam and its capability checks, the
 *   2026-07-28 stamps; an invalid result becomes the SDK's error;
 * - a notification of a 2026-07-28 call (progress, log messages): the SDK's era
 *   and capability checks, and its shape.
 *
 * Nothing of a request runs here: the call has run already, on its route; this
 * only turns its outcome into the bytes the SDK path would send. The instances
 * talk to no client: what they send is handed back to the caller.
 */
import {
  PerRequestHTTPServerTransport,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { Core } from '../core/core.js';
import type { ProtocolEra } from '../core/request-context.js';
import { serverArgs } from './server-options.js';
import type { ModernEraSupport } from './modern-era.js';
import { LEGACY_PROTOCOL_VERSIONS } from './wire-constants.js';

/** The revision of the 2026-07-28 era the core routes serve. */
export const MODERN_REVISION = '2026-07-28';

const CLASSIFIED: MessageExtraInfo = { classification: { era: 'modern', revision: MODERN_REVISION } } as MessageExtraInfo;

/** The methods whose results the core routes answer. */
export type EncodedMethod = 'tools/call' | 'prompts/get' | 'resources/read' | 'completion/complete';

/** A request as it arrived: what the mirror request repeats. */
export interface MirroredRequest {
  method: EncodedMethod;
  /** The params as they arrived (with the 2026-07-28 `_meta` envelope). */
  params: Record<string, unknown>;
}

export type Encoded = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

type Sent = (message: JSONRPCMessage, options?: TransportSendOptions) => void;

/** What a method needs declared before the SDK lets a handler of it be registered. */
const CAPABILITY_OF: Record<EncodedMethod, string> = {
  'tools/call': 'tools',
  'prompts/get': 'prompts',
  'resources/read': 'resources',
  'completion/complete': 'completions',
};

/** A 2026-07-28 connection (connecting binds the instance to the revision) whose messages come back to the codec. */
class ModernSink extends PerRequestHTTPServerTransport {
  constructor(private readonly sent: Sent) {
    super({ classification: { era: 'modern', revision: MODERN_REVISION } });
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent(message, options);
  }

  override async close(): Promise<void> {
    // The instance lives as long as the process.
  }

  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message, CLASSIFIED);
  }
}

/** A 2025-era connection, bound to its era by an initialize the codec delivers first. */
class LegacySink implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly sent: Sent) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent(message, options);
  }

  async close(): Promise<void> {}

  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

interface Instance {
  server: Server;
  deliver(message: JSONRPCMessage): void;
}

export interface SdkCodecOptions {
  core: Core;
  modern: ModernEraSupport;
  /** Tasks are served (`mcp.tasks.enabled`): declared as on every instance. */
  tasks: boolean;
}

export class SdkCodec {
  private readonly instances = new Map<ProtocolEra, Promise<Instance>>();
  /** Answers of mirror requests and targets of notifications, by the id the codec gave them. */
  private readonly waiting = new Map<number, { result?: unknown; done: (message: JSONRPCMessage) => void }>();
  private next = 0;

  constructor(private readonly opts: SdkCodecOptions) {}

  /** `result` of `request` encoded as the SDK path of `era` encodes it (or the SDK's error when it refuses it). */
  async encodeResult(era: ProtocolEra, request: MirroredRequest, result: unknown): Promise<Encoded> {
    const instance = await this.instance(era);
    const id = ++this.next;
    const answered = new Promise<JSONRPCMessage>((done) => this.waiting.set(id, { result, done }));
    try {
      instance.deliver({ jsonrpc: '2.0', id, method: request.method, params: request.params } as JSONRPCMessage);
      const message = (await answered) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
      return message.error ? { error: message.error } : { result: message.result ?? {} };
    } finally {
      this.waiting.delete(id);
    }
  }

  /** Sends a notification of a 2026-07-28 call the SDK's way; what the SDK sends goes to `deliver`. Rejects as the SDK would. */
  async notify(notification: { method: string; params?: Record<string, unknown> }, deliver: (message: JSONRPCMessage) => void): Promise<void> {
    const { server } = await this.instance('2026');
    const id = ++this.next;
    this.waiting.set(id, { done: deliver });
    try {
      await server.notification(notification as Parameters<Server['notification']>[0], { relatedRequestId: id });
    } finally {
      this.waiting.delete(id);
    }
  }

  private instance(era: ProtocolEra): Promise<Instance> {
    let made = this.instances.get(era);
    if (!made) {
      made = this.build(era);
      this.instances.set(era, made);
    }
    return made;
  }

  private async build(era: ProtocolEra): Promise<Instance> {
    const { core, modern, tasks } = this.opts;
    const args = serverArgs(core, { era, tasks, modern, ...(era === '2026' ? { supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION] } : {}) });
    const server = new Server(args.info, args.options);
    server.registerCapabilities(args.capabilities);
    const capabilities = server.getCapabilities() as Record<string, unknown>;
    for (const method of Object.keys(CAPABILITY_OF) as EncodedMethod[]) {
      if (capabilities[CAPABILITY_OF[method]] === undefined) continue;
      // The answer of a mirror request is the result the call made.
      server.setRequestHandler(method, ((_request: unknown, ctx: { mcpReq: { id: string | number } }) => this.waiting.get(ctx.mcpReq.id as number)?.result) as never);
    }
    const sent: Sent = (message, options) => {
      const m = message as { id?: unknown };
      const key = typeof m.id === 'number' ? m.id : options?.relatedRequestId;
      if (typeof key === 'number') this.waiting.get(key)?.done(message);
    };
    if (era === '2026') {
      const sink = new ModernSink(sent);
      await server.connect(sink);
      if (server.getNegotiatedProtocolVersion() !== MODERN_REVISION) throw new Error('The SDK codec is not bound to 2026-07-28');
      return { server, deliver: (message) => sink.deliver(message) };
    }
    const sink = new LegacySink(sent);
    await server.connect(sink);
    // Bound to the 2025 era as a session is: by its initialize (the answer goes nowhere).
    const id = ++this.next;
    const initialized = new Promise<JSONRPCMessage>((done) => this.waiting.set(id, { done }));
    sink.deliver({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: LEGACY_PROTOCOL_VERSIONS[0], capabilities: {}, clientInfo: { name: 'fa-mcp-sdk codec', version: '0' } },
    } as JSONRPCMessage);
    await initialized;
    this.waiting.delete(id);
    sink.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
    return { server, deliver: (message) => sink.deliver(message) };
  }
}
