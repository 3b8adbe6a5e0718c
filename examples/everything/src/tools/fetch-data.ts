/**
 * What gzip-file-as-resource compresses: the bytes of a data: URI, or of an http(s) URL whose
 * host is allowed, read within a size and a time limit. Every refusal is a ToolExecutionError,
 * so the model reads why.
 */
import { ToolExecutionError } from 'fa-mcp-sdk';
import type { EverythingSettings } from '../settings.js';

type GzipSettings = EverythingSettings['gzip'];

/** Whether `host` is one of the allowed domains or a subdomain of one. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((d) => {
    const domain = d.toLowerCase().replace(/^\[|\]$/g, '');
    return h === domain || h.endsWith(`.${domain}`);
  });
}

function parseSource(data: string, settings: GzipSettings): URL {
  let url: URL;
  try {
    url = new URL(data);
  } catch {
    throw new ToolExecutionError(`data must be a URL or a data: URI, got ${JSON.stringify(data.slice(0, 80))}`);
  }
  if (url.protocol === 'data:') return url;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolExecutionError(`Unsupported URL scheme ${url.protocol} (http, https and data only)`);
  if (!hostAllowed(url.hostname, settings.allowedDomains)) {
    throw new ToolExecutionError(
      `Domain ${url.hostname} is not allowed: this server fetches only from ${settings.allowedDomains.join(', ') || '(no domain)'} (GZIP_ALLOWED_DOMAINS).`,
    );
  }
  return url;
}

/** Reads the body, failing as soon as it passes `maxBytes`. */
async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

const tooLarge = (maxBytes: number) => new ToolExecutionError(`The data is larger than ${maxBytes} bytes (GZIP_MAX_FETCH_SIZE).`);

/** The bytes `data` names, within the configured limits; `signal` is the call's (cancellation, timeout). */
export async function fetchData(data: string, settings: GzipSettings, signal: AbortSignal): Promise<Buffer> {
  const url = parseSource(data, settings);
  const deadline = AbortSignal.timeout(settings.maxFetchTimeMs);
  let res: Response;
  try {
    // Redirects are refused: a redirect could lead to a host the list does not allow.
    res = await fetch(url, { signal: AbortSignal.any([signal, deadline]), redirect: 'error' });
    if (!res.ok) throw new ToolExecutionError(`Fetching ${url.protocol === 'data:' ? 'the data URI' : url.toString()} failed: HTTP ${res.status}`);
    return await readCapped(res, settings.maxFetchBytes);
  } catch (err) {
    if (err instanceof ToolExecutionError || signal.aborted) throw err;
    if (deadline.aborted) throw new ToolExecutionError(`Fetching the data took longer than ${settings.maxFetchTimeMs} ms (GZIP_MAX_FETCH_TIME_MILLIS).`);
    throw new ToolExecutionError(`Fetching the data failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
