/**
 * `.env`: written from the answers rather than copied from the template, and the only file a
 * secret is ever written to (git-ignored, left out of the Docker build context).
 */
import type { Answers } from './answers.js';
import type { FeatureOutput } from './features.js';

const NOTES: Record<string, string> = {
  POSTGRES_PASSWORD: 'Password of the PostgreSQL service in deploy/docker/docker-compose.yml.',
  AUTH_PERMANENT_SERVER_TOKENS: 'Bearer token clients send (webServer.auth.permanentServerTokens): Authorization: Bearer <token>.',
  DATABASE_URL: 'The main database (db.postgres.dbs.main.url).',
  METRICS_TOKEN: 'Bearer token of the Prometheus scrape of /metrics (webServer.metrics.token).',
  MCP_REQUEST_STATE_SECRET: 'Signs the state of multi-round requests (mcp.requestState.secret); the same on every instance.',
};

export function envFile(answers: Answers, features: FeatureOutput): string {
  const lines = [
    '# Local environment of this server, written by create-fa-mcp. Read when the server starts',
    '# (src/start.ts) and passed into the container by deploy/docker/docker-compose.yml. Never commit it:',
    '# .gitignore and .dockerignore exclude it. .env.example documents the variables.',
    '',
    '# Host port published by docker compose.',
    `HOST_PORT=${answers.port}`,
  ];
  for (const [key, value] of Object.entries(features.env)) lines.push('', `# ${NOTES[key] ?? key}`, `${key}=${value}`);
  return `${lines.join('\n')}\n`;
}
