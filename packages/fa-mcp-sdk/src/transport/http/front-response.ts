/**
 * The HTTP server's response class. The request front (request-front.ts) gives
 * every response the same dozen headers: the security headers, X-Request-Id
 * and, while shutting down, `Connection: close`. Set one `setHeader` at a time,
 * they cost about a third of what node:http itself spends on a request; given
 * to node in one `writeHead` list, about half of that. So the front may leave
 * them with the response (`deferFront`), and they are written with its
 * `writeHead`.
 *
 * Nothing but the cost can tell the two apart: any other use of the header store
 * (set, append, read, remove, flush, a header list or a name clash in `writeHead`)
 * first stores the front's headers, in the order and with the values the eager
 * front would have set. A response handed to express must be stored first
 * (`storeFront`): express swaps the response's prototype, and these methods with it.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

type HeaderValue = string | number | readonly string[];

/** The front's headers shared by every response: built once per server. */
export interface FrontHeaders {
  /** `[name, value, …]` of the security headers (security-headers.ts `securityHeaderList`). */
  readonly shared: ReadonlyArray<HeaderValue>;
  /** The name of the request id's header (`X-Request-Id`). */
  readonly idHeader: string;
  /** The lower-case names the front writes (the shared ones, the request id's, `connection`). */
  readonly names: ReadonlySet<string>;
}

export function frontHeaders(shared: ReadonlyArray<HeaderValue>, requestIdHeader: string): FrontHeaders {
  const names = new Set<string>(['connection', requestIdHeader.toLowerCase()]);
  for (let i = 0; i < shared.length; i += 2) names.add(String(shared[i]).toLowerCase());
  return { shared, idHeader: requestIdHeader, names };
}

export class FrontResponse<Req extends IncomingMessage = IncomingMessage> extends ServerResponse<Req> {
  #front: FrontHeaders | undefined = undefined;
  #id = '';
  #close = false;
  /** A header went into node's store before the front deferred its own (the front then stores at once). */
  #touched = false;

  /**
   * Leaves the front's headers with this response until it is written. False when a header is
   * already stored (the front then sets its own at once, as on any other response).
   */
  deferFront(front: FrontHeaders, id: string, close: boolean): boolean {
    if (this.#touched || this.headersSent) return false;
    this.#front = front;
    this.#id = id;
    this.#close = close;
    return true;
  }

  /** Puts the deferred headers into node's store now, as the eager front would have set them. */
  storeFront(): void {
    const front = this.#front;
    if (front === undefined) return;
    this.#front = undefined;
    const { shared } = front;
    for (let i = 0; i < shared.length; i += 2) super.setHeader(shared[i] as string, shared[i + 1] as HeaderValue);
    if (this.#close) super.setHeader('Connection', 'close');
    super.setHeader(front.idHeader, this.#id);
  }

  /** One list for node: the front's headers, then the response's own; undefined when they do not fit in one. */
  #together(front: FrontHeaders, own: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): OutgoingHttpHeader[] | undefined {
    if (Array.isArray(own)) return undefined;
    const list = front.shared.slice() as OutgoingHttpHeader[];
    if (this.#close) list.push('Connection', 'close');
    list.push(front.idHeader, this.#id);
    if (own) {
      for (const name in own) {
        // A clash replaces the front's value in the store; the list would send both.
        if (front.names.has(name.toLowerCase())) return undefined;
        // An undefined value goes on as it is: node refuses it as it would in the store.
        list.push(name, own[name] as OutgoingHttpHeader);
      }
    }
    return list;
  }

  override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    maybeHeaders?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
    const own = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
    const front = this.#front;
    const list = front && this.#together(front, own);
    if (list) {
      this.#front = undefined;
      return reason === undefined ? super.writeHead(statusCode, list) : super.writeHead(statusCode, reason, list);
    }
    this.storeFront();
    return reason === undefined ? super.writeHead(statusCode, own) : super.writeHead(statusCode, reason, own);
  }

  override setHeader(name: string, value: HeaderValue): this {
    this.storeFront();
    this.#touched = true;
    return super.setHeader(name, value);
  }

  override appendHeader(name: string, value: string | readonly string[]): this {
    this.storeFront();
    this.#touched = true;
    return super.appendHeader(name, value);
  }

  override setHeaders(headers: Headers | Map<string, HeaderValue>): this {
    this.storeFront();
    this.#touched = true;
    return super.setHeaders(headers);
  }

  override getHeader(name: string): ReturnType<ServerResponse['getHeader']> {
    this.storeFront();
    return super.getHeader(name);
  }

  override getHeaders(): OutgoingHttpHeaders {
    this.storeFront();
    return super.getHeaders();
  }

  override getHeaderNames(): string[] {
    this.storeFront();
    return super.getHeaderNames();
  }

  /** Node has it since 15.13; @types/node does not declare it. */
  getRawHeaderNames(): string[] {
    this.storeFront();
    return (ServerResponse.prototype as unknown as { getRawHeaderNames(this: ServerResponse): string[] }).getRawHeaderNames.call(this);
  }

  override hasHeader(name: string): boolean {
    this.storeFront();
    return super.hasHeader(name);
  }

  override removeHeader(name: string): void {
    this.storeFront();
    super.removeHeader(name);
  }

  override flushHeaders(): void {
    this.storeFront();
    super.flushHeaders();
  }
}
