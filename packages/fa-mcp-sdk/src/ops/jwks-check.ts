/**
 * `/ready` check for a remote JWKS (`webServer.auth.jwtToken.mode: remoteJwks`):
 * the key set answers and holds at least one key. The URL itself is not part of
 * the outcome (it may carry credentials); errors are masked by the health route.
 */
import type { ReadinessCheck } from './health.js';

export function jwksReadinessCheck(url: string, timeoutMs = 2000): ReadinessCheck {
  return {
    name: 'jwks',
    timeoutMs,
    check: async (signal) => {
      const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`JWKS answered HTTP ${res.status}`);
      const body = (await res.json().catch(() => undefined)) as { keys?: unknown } | undefined;
      if (!body || !Array.isArray(body.keys) || body.keys.length === 0) throw new Error('JWKS holds no keys');
    },
  };
}
