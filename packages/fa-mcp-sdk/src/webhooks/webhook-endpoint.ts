/** A configured endpoint made ready to deliver: its URL parsed, its signer built, its event filter. */
import type { WebhookEndpointConfig } from '../config/sections/webhooks.js';
import { WebhookSigner } from './webhook-signer.js';

export interface ResolvedEndpoint {
  name: string;
  url: URL;
  signer: WebhookSigner;
  timeoutMs: number;
  headers: Record<string, string>;
  takes(type: string): boolean;
}

const RESERVED_HEADER = /^(webhook-|content-type$|content-length$|host$)/i;

/** Does a pattern (`*`, `prefix.*`, or an exact type) match `type`? */
export function typeMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** Throws (with the endpoint's name, never its secret) on a bad endpoint. */
export function resolveEndpoint(cfg: WebhookEndpointConfig, defaultTimeoutMs: number, env: Record<string, string | undefined>): ResolvedEndpoint {
  const what = `webhooks.endpoints[${cfg.name}]`;
  let url: URL;
  try {
    url = new URL(cfg.url);
  } catch {
    throw new Error(`${what}.url is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${what}.url must be http(s)`);
  const secret = cfg.secretEnv ? env[cfg.secretEnv] : cfg.secret;
  if (cfg.secretEnv && !secret) throw new Error(`${what}.secretEnv: ${cfg.secretEnv} is not set`);
  const headers = cfg.headers ?? {};
  for (const h of Object.keys(headers)) if (RESERVED_HEADER.test(h)) throw new Error(`${what}.headers: ${h} is set by the framework`);
  const patterns = cfg.events && cfg.events.length > 0 ? cfg.events : ['*'];
  return {
    name: cfg.name,
    url,
    signer: new WebhookSigner(secret ?? '', `${what}.secret`),
    timeoutMs: cfg.timeoutMs ?? defaultTimeoutMs,
    headers,
    takes: (type) => patterns.some((p) => typeMatches(p, type)),
  };
}
