/** `npm start`: runs the everything server (HOST, PORT; MCP_TRANSPORT_TYPE=stdio for stdio) and says how to reach it. */
import { fileURLToPath } from 'node:url';
import { listeningBanner, stdioBanner } from './connection-info.js';
import { createEverythingServer } from './server.js';

try {
  const server = await createEverythingServer();
  const banner = listeningBanner(server);
  // Over stdio, stdout is the protocol channel: the note goes to stderr.
  if (banner) process.stdout.write(banner);
  else process.stderr.write(stdioBanner(fileURLToPath(import.meta.url)));
} catch (err) {
  console.error(`fa-mcp-everything could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
