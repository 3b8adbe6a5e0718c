/**
 * DNS-rebinding protection for the HTTP transport.
 *
 * A browser tricked into resolving evil.example.com to 127.0.0.1 still sends
 * `Host: evil.example.com` and `Origin: http://evil.example.com`, so both are
 * checked against exact, pre-parsed allow lists. Nothing here is a substring
 * test or a regex built from configuration: `localhost.evil.com` is not
 * `localhost`.
 *
 * Host (when enabled): the hostname, port ignored, must be loopback
 * (localhost, 127.0.0.1, ::1), the bind host when it is a specific address,
 * or an `allowedHosts` entry (case-insensitive; an entry with a port must match
 * host:port exactly).
 * Origin (when present): its serialized origin must equal an `allowedOrigins`
 * entry, or be an http(s) loopback origin on any port while Host is loopback.
 * `enabled: false` turns the whole guard off.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler, Response } from 'express';

export interface HostOriginGuardOptions {
  enabled: boolean;
  /** The address the server listens on; 0.0.0.0 and :: add nothing. */
  bindHost: string;
  /** 'example.com' (any port) or 'example.com:8443' (that port only). */
  allowedHosts: string[];
  /** Full origins: 'https://app.example.com' or 'http://10.0.0.5:3000'. */
  allowedOrigins: string[];
}

interface HostPort {
  /** Lower case; IPv6 without brackets, in canonical form. */
  hostname: string;
  port?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);
const WILDCARD_BIND_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);
const HOST_SYNTAX = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9._-]+))(?::(\d{1,5}))?$/i;

/** Parses a Host header value ('name', 'name:port', '[v6]', '[v6]:port'). */
export function parseHostHeader(value: string | undefined): HostPort | undefined {
  if (value === undefined) return undefined;
  const match = HOST_SYNTAX.exec(value.trim());
  if (!match) return undefined;
  const [, ipv6, name, port] = match;
  const hostname = ipv6 !== undefined ? canonicalIpv6(ipv6) : name?.toLowerCase();
  if (hostname === undefined) return undefined;
  return port === undefined ? { hostname } : { hostname, port };
}

function canonicalIpv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** Config entries may also be a bare IPv6 address such as '::1'. */
function parseHostEntry(entry: string): HostPort {
  const text = entry.trim();
  const bareIpv6 = !text.startsWith('[') && text.split(':').length > 2;
  const parsed = parseHostHeader(bareIpv6 ? `[${text}]` : text);
  if (!parsed) throw new Error(`Invalid allowed host entry: ${JSON.stringify(entry)}`);
  return parsed;
}

function parseOriginEntry(entry: string): string {
  let origin: string;
  try {
    origin = new URL(entry.trim()).origin;
  } catch {
    origin = 'null';
  }
  if (origin === 'null') throw new Error(`Invalid allowed origin entry: ${JSON.stringify(entry)}`);
  return origin;
}

/** The serialized origin of an Origin header, or undefined when it is not one. */
function parseOriginHeader(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  const bare = url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  if (!bare || url.origin === 'null') return undefined;
  return url;
}

function isLoopbackOrigin(url: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return LOOPBACK_HOSTS.has(hostname);
}

function forbid(res: Response, reason: string): void {
  res.status(403).json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${reason}` }, id: null });
}

/** Why a request's Host or Origin is refused, or undefined when both pass (all pass when the guard is off). */
export type HostOriginCheck = (headers: IncomingHttpHeaders) => 'invalid Host header' | 'invalid Origin header' | undefined;

export function hostOriginCheck(opts: HostOriginGuardOptions): HostOriginCheck {
  if (!opts.enabled) return () => undefined;

  const allowedHosts = opts.allowedHosts.map(parseHostEntry);
  const bind = WILDCARD_BIND_HOSTS.has(opts.bindHost.trim()) ? undefined : parseHostEntry(opts.bindHost);
  if (bind) allowedHosts.push({ hostname: bind.hostname });
  const allowedOrigins = new Set(opts.allowedOrigins.map(parseOriginEntry));

  const hostAllowed = (host: HostPort): boolean =>
    LOOPBACK_HOSTS.has(host.hostname) ||
    allowedHosts.some((entry) => entry.hostname === host.hostname && (entry.port === undefined || entry.port === host.port));

  // The verdict on the last Host value seen: clients send the same one on every request.
  let lastHost: string | undefined;
  let lastVerdict: HostPort | undefined;
  const allowedHost = (value: string | undefined): HostPort | undefined => {
    if (value !== undefined && value === lastHost) return lastVerdict;
    const host = parseHostHeader(value);
    const verdict = host && hostAllowed(host) ? host : undefined;
    lastHost = value;
    lastVerdict = verdict;
    return verdict;
  };

  return (headers) => {
    const host = allowedHost(headers.host);
    if (!host) return 'invalid Host header';
    const originHeader = headers.origin;
    if (originHeader !== undefined) {
      const origin = parseOriginHeader(originHeader);
      const allowed =
        origin !== undefined &&
        (allowedOrigins.has(origin.origin) || (isLoopbackOrigin(origin) && LOOPBACK_HOSTS.has(host.hostname)));
      if (!allowed) return 'invalid Origin header';
    }
    return undefined;
  };
}

export function hostOriginGuard(opts: HostOriginGuardOptions): RequestHandler {
  if (!opts.enabled) return (_req, _res, next) => next();
  const check = hostOriginCheck(opts);
  return (req, res, next) => {
    const refused = check(req.headers);
    if (refused) {
      forbid(res, refused);
      return;
    }
    next();
  };
}
