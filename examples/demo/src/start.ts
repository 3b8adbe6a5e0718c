/** `pnpm start`: runs the demo server and prints how to connect to it. */
import { fileURLToPath } from 'node:url';
import { connectionInfo, formatConnectionInfo, formatStdioInfo } from './connection-info.js';
import { createDemoServer } from './server.js';

try {
  const server = await createDemoServer();
  const info = connectionInfo(server);
  // Over stdio, stdout is the protocol channel: the banner goes to stderr.
  if (info) process.stdout.write(formatConnectionInfo(info));
  else process.stderr.write(formatStdioInfo(fileURLToPath(import.meta.url)));
} catch (err) {
  // A bad configuration value or a busy port: say what went wrong, without a stack trace.
  console.error(`fa-mcp-demo could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
