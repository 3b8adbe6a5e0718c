/**
 * Why the start warns about `/metrics`: with authentication on in production,
 * a scrape endpoint on the main port without `webServer.metrics.token` is read
 * by anyone who reaches the port (past the Host/Origin guard), and it names
 * the tools and the reasons authentication failed. Its own port
 * (`separatePort`, kept off the public network) or a token closes that.
 */
import type { AppConfig } from '../config/schema.js';

export function metricsExposureWarning(config: AppConfig, nodeEnv: string): string | undefined {
  const m = config.webServer.metrics;
  if (!m.enabled || m.separatePort || m.token !== '' || !config.webServer.auth.enabled || nodeEnv !== 'production') return undefined;
  if (config.mcp.transportType !== 'http') return undefined;
  return `${m.path} on the main port has no token: anyone who reaches the port reads tool names and authentication-failure reasons; set webServer.metrics.token (METRICS_TOKEN) or webServer.metrics.separatePort (METRICS_SEPARATE_PORT)`;
}
