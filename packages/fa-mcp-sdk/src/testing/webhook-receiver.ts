/**
 * A webhook receiver on loopback for tests: verifies each request with the
 * `standardwebhooks` package (the way a real receiver would), records it, and answers
 * what the test says (2xx by default). It can stop listening and listen again
 * on the same port, to play a receiver that is down for a while.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed body (`{ type, timestamp, data }`). */
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The signature verified with the receiver's secret. */
  verified: boolean;
}

export interface WebhookResponse {
  status: number;
  headers?: Record<string, string>;
  /** The answer's body (default: none). */
  body?: string;
}

export interface WebhookReceiverOptions {
  /** `whsec_<base64>` secret the signatures are verified with. */
  secret: string;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** The answer to each verified request (default 204); an unverified one gets 401. */
  respond?: (hook: ReceivedWebhook) => WebhookResponse;
  /**
   * Answer a signed MCP Events verification request (`{ type: 'verification', challenge }`)
   * with `{ challenge }`, as a receiver that consents to deliveries does (default true).
   */
  echoChallenges?: boolean;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  /** Every request in arrival order (verified or not). */
  readonly received: ReceivedWebhook[];
  /** Changes the answer from now on. */
  respondWith(respond: (hook: ReceivedWebhook) => WebhookResponse): void;
  /** Resolves with the received hooks once `done(received)` is true; rejects after `timeoutMs`. */
  waitFor(done: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  /** Stops listening (connections are refused) until `listen()`. */
  close(): Promise<void>;
  listen(): Promise<void>;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') out[k] = v;
  return out;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const verifier = new Webhook(options.secret);
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  let respond = options.respond ?? (() => ({ status: 204 }));
  let server: Server | undefined;
  let port = options.port ?? 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = flatHeaders(req);
      let verified = true;
      try {
        verifier.verify(body, headers);
      } catch {
        verified = false;
      }
      let payload: ReceivedWebhook['payload'];
      try {
        payload = JSON.parse(body) as ReceivedWebhook['payload'];
      } catch {
        payload = { type: '', timestamp: '', data: {} };
      }
      const hook: ReceivedWebhook = {
        id: headers['webhook-id'] ?? '',
        timestamp: headers['webhook-timestamp'] ?? '',
        signature: headers['webhook-signature'] ?? '',
        headers,
        body,
        payload,
        verified,
      };
      received.push(hook);
      const challenge = (payload as { type?: unknown; challenge?: unknown }).type === 'verification' ? (payload as { challenge?: unknown }).challenge : undefined;
      const answer: WebhookResponse = !verified
        ? { status: 401 }
        : typeof challenge === 'string' && options.echoChallenges !== false
          ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge }) }
          : respond(hook);
      res.writeHead(answer.status, answer.headers).end(answer.body);
      for (const w of waiters) w();
    });
  };

  const receiver: WebhookReceiver = {
    get url() {
      return `http://127.0.0.1:${port}/hooks`;
    },
    get port() {
      return port;
    },
    received,
    respondWith(fn) {
      respond = fn;
    },
    waitFor(done, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(received)) return;
          cleanup();
          resolve([...received]);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`webhook receiver: condition not met within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      const s = server;
      server = undefined;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async listen() {
      if (server) return;
      const s = createServer(handle);
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      port = (s.address() as AddressInfo).port;
      server = s;
    },
  };
  await receiver.listen();
  return receiver;
}
