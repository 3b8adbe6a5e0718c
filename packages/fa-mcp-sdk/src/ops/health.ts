/**
 * Liveness and readiness endpoints.
 *
 * GET /health: the process is up (always 200 while it can answer).
 * GET /ready: every readiness check passes within its timeout, in parallel;
 * 503 when one fails or times out, or while the server is shutting down.
 * Error messages are reduced to the message text, secrets masked, length capped.
 */
import express from 'express';
import type { Router } from 'express';
import { maskSecretsInString } from '../config/mask.js';

import type { ReadinessCheck } from '../core/readiness-check.js';

export type { ReadinessCheck };

export interface HealthRouterOptions {
  name: string;
  version: string;
  /** Start time, milliseconds since the epoch. */
  startedAt: number;
  checks: () => ReadinessCheck[];
  isShuttingDown: () => boolean;
}

export interface CheckOutcome {
  status: 'ok' | 'fail';
  durationMs: number;
  error?: string;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckOutcome>;
  reason?: 'shutting_down' | 'checks_unavailable';
}

export const DEFAULT_CHECK_TIMEOUT_MS = 2000;
const MAX_ERROR_LENGTH = 300;

class CheckTimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'CheckTimeoutError';
  }
}

function safeMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : 'check failed';
  const masked = maskSecretsInString(text).replace(/\s+/g, ' ').trim() || 'check failed';
  return masked.length > MAX_ERROR_LENGTH ? `${masked.slice(0, MAX_ERROR_LENGTH)}…` : masked;
}

/** Runs one check with its own timeout; never rejects. */
export async function runCheck(item: ReadinessCheck): Promise<CheckOutcome> {
  const timeoutMs = item.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const controller = new AbortController();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new CheckTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    // Promise.resolve().then(...) turns a synchronous throw into a rejection.
    await Promise.race([Promise.resolve().then(() => item.check(controller.signal)), timeout]);
    return { status: 'ok', durationMs: elapsed(started) };
  } catch (error) {
    return { status: 'fail', durationMs: elapsed(started), error: safeMessage(error) };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** Runs all checks in parallel and builds the /ready body. */
export async function runReadiness(checks: ReadinessCheck[]): Promise<ReadinessReport> {
  const outcomes = await Promise.all(checks.map(runCheck));
  const report: ReadinessReport = { status: 'ready', checks: {} };
  checks.forEach((item, index) => {
    const outcome = outcomes[index];
    if (!outcome) return;
    report.checks[item.name] = outcome;
    if (outcome.status === 'fail') report.status = 'not_ready';
  });
  return report;
}

export function createHealthRouter(opts: HealthRouterOptions): Router {
  const router = express.Router();

  router.get('/health', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({
      status: 'ok',
      name: opts.name,
      version: opts.version,
      uptimeSec: Math.max(0, Math.floor((Date.now() - opts.startedAt) / 1000)),
    });
  });

  router.get('/ready', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (opts.isShuttingDown()) {
      res.status(503).json({ status: 'not_ready', checks: {}, reason: 'shutting_down' } satisfies ReadinessReport);
      return;
    }
    let report: ReadinessReport;
    try {
      report = await runReadiness(opts.checks());
    } catch {
      // The check list itself could not be built: not ready, details stay in the server logs.
      report = { status: 'not_ready', checks: {}, reason: 'checks_unavailable' };
    }
    // Shutdown may have begun while the checks ran.
    if (opts.isShuttingDown()) report = { ...report, status: 'not_ready', reason: 'shutting_down' };
    res.status(report.status === 'ready' ? 200 : 503).json(report);
  });

  return router;
}
