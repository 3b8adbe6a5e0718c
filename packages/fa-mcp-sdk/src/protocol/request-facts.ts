/**
 * What the HTTP front learnt of a request (its request id, the client address
 * after `webServer.trustProxy`) kept beside the request's headers object, for
 * whoever reads the request later: the request context (describe-request.ts)
 * and the wire observation, on every route. The SDK hands its handlers the web
 * Request the transport built (`ctx.http.req`), so the facts are found from
 * it without anything written into the request itself (no in-band headers, no
 * fields on node's or express's objects).
 */
export interface HttpRequestFacts {
  /** X-Request-Id as accepted (request-id.ts), or minted. */
  requestId: string;
  /** The client address after the trust-proxy rules. */
  remoteAddress: string;
  /**
   * Set when a JSON-RPC request of this HTTP request began to be observed (observe-request.ts,
   * wire-observe.ts): its audit record is the observation's; the HTTP front records one of its own
   * only for an answer nobody observed (a refusal before the pipeline).
   */
  observed?: boolean;
}

const facts = new WeakMap<object, HttpRequestFacts>();

/** Keeps `value` for the request whose headers object is `headers` (a web Request's Headers, or the fast lane's view). */
export function rememberHttpFacts(headers: object, value: HttpRequestFacts): void {
  facts.set(headers, value);
}

/** The facts kept for the request whose headers object is `headers`. */
export function httpFactsOf(headers: object | undefined): HttpRequestFacts | undefined {
  return headers === undefined ? undefined : facts.get(headers);
}
