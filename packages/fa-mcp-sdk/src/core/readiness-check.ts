/** One check behind `/ready` (`McpServerData.readinessChecks`, the databases' own): ops/health.ts runs them. */
export interface ReadinessCheck {
  name: string;
  /** Resolve when healthy; throw or reject when not. Honour `signal` to stop early. */
  check: (signal: AbortSignal) => Promise<void> | void;
  /** Default 2000 ms. */
  timeoutMs?: number;
}
