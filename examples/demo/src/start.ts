/** `pnpm start`: runs the demo server and prints how to connect to it. */
import { connectionInfo, formatConnectionInfo } from './connection-info.js';
import { createDemoServer } from './server.js';

try {
  const server = await createDemoServer();
  process.stdout.write(formatConnectionInfo(connectionInfo(server)));
} catch (err) {
  // A bad configuration value or a busy port: say what went wrong, without a stack trace.
  console.error(`fa-mcp-demo could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
