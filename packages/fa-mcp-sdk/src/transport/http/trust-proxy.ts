/**
 * Which X-Forwarded-For hops the server believes (`webServer.trustProxy`), as
 * one compiled rule shared by express (`trust proxy`) and the HTTP fast lane,
 * so both see the same client address.
 *
 * An appending proxy (nginx `$proxy_add_x_forwarded_for`) keeps what the
 * client sent and adds the address it saw: `X-Forwarded-For: <anything the
 * client chose>, <real client>`. The client address is therefore the rightmost
 * value not added by a trusted proxy; believing every hop would let the client
 * pick its own address (rate limits and per-address ownership then follow it).
 *
 * - `false` or `0`: no proxy is trusted; the socket's peer is the client.
 * - `true`: ONE hop, the proxy the server's socket talks to (not express's
 *   "trust everything", which a client can forge through an appending proxy).
 * - an integer n: n hops (a chain of n proxies in front).
 * - a string or a list: the proxies' addresses, CIDRs or the names
 *   `loopback`, `linklocal`, `uniquelocal` (comma-separated in a string), as
 *   express's `trust proxy` takes them; a hop is trusted when its address matches.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

export type TrustProxySetting = boolean | number | string | string[];

/** The compiled rule: is the hop at `address`, `index` hops away from the socket (0 is the socket's peer), a trusted proxy? */
export type TrustProxyRule = (address: string, index: number) => boolean;

const TRUST_NONE: TrustProxyRule = () => false;

export function compileTrustProxy(setting: TrustProxySetting): TrustProxyRule {
  if (setting === false) return TRUST_NONE;
  if (setting === true) return hops(1);
  if (typeof setting === 'number') {
    if (!Number.isInteger(setting) || setting < 0) throw new Error(`webServer.trustProxy: a hop count must be a whole number >= 0, got ${setting}`);
    return setting === 0 ? TRUST_NONE : hops(setting);
  }
  const list = (Array.isArray(setting) ? setting : setting.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  if (list.length === 0) return TRUST_NONE;
  try {
    return proxyAddr.compile(list);
  } catch (err) {
    throw new Error(`webServer.trustProxy: ${(err as Error).message} (expected IP addresses, CIDRs, loopback, linklocal or uniquelocal)`);
  }
}

function hops(n: number): TrustProxyRule {
  return (_address, index) => index < n;
}

/** The client address of a node request under the rule: what express's `req.ip` answers with the same rule. */
export function clientAddress(req: IncomingMessage, rule: TrustProxyRule): string | undefined {
  if (rule === TRUST_NONE || req.headers['x-forwarded-for'] === undefined) return req.socket.remoteAddress;
  return proxyAddr(req, rule);
}
