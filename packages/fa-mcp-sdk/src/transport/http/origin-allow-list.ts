/**
 * An exact allow-list of browser origins: scheme, host and port, compared as
 * serialized origins (RFC 6454). No substring test and no pattern: an entry
 * `http://localhost` admits `http://localhost` (port 80) and nothing else, not
 * `http://localhost.evil.com`, not `http://localhost:8080`, not `https://localhost`.
 */

export interface OriginAllowList {
  /** The serialized allowed origin matching the header, or undefined when it is not allowed. */
  match(originHeader: string | undefined): string | undefined;
  readonly size: number;
}

/** The serialized origin of a configured entry; throws on anything that is not one. */
export function parseAllowedOrigin(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(entry.trim());
  } catch {
    url = undefined;
  }
  const bare = !!url && url.username === '' && url.password === '' && (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
  if (!url || !bare || url.origin === 'null' || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`Invalid allowed origin ${JSON.stringify(entry)}: expected scheme://host[:port], e.g. https://app.example.com`);
  }
  return url.origin;
}

/** The serialized origin an Origin header names, or undefined when the header is not a plain http(s) origin. */
export function parseOriginHeader(value: string): string | undefined {
  const text = value.trim();
  // Browsers send `scheme://host[:port]` exactly; anything longer is not an origin.
  if (!/^https?:\/\/[^/?#@\s]+$/i.test(text)) return undefined;
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function originAllowList(entries: readonly string[]): OriginAllowList {
  const allowed = new Set(entries.map(parseAllowedOrigin));
  return {
    size: allowed.size,
    match(originHeader) {
      if (originHeader === undefined || allowed.size === 0) return undefined;
      const origin = parseOriginHeader(originHeader);
      return origin !== undefined && allowed.has(origin) ? origin : undefined;
    },
  };
}
