/** Entry point: `npm start` after `npm run build`, or `npm run dev`. Stops gracefully on SIGTERM/SIGINT. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, startServer } from './server.js';

// Local variables from .env when present (Docker and CI set them in the environment instead).
const envFile = join(PROJECT_ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

try {
  await startServer();
} catch (err) {
  // A bad configuration value or a busy port: say what went wrong, without a stack trace.
  console.error(`The server could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
