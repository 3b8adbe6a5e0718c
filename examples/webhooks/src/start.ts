/** `pnpm start`: runs the webhooks example (WEBHOOK_URL and WEBHOOK_SECRET must be set). */
import { createWebhooksServer } from './server.js';

try {
  const server = await createWebhooksServer();
  process.stdout.write(`fa-mcp-webhooks: MCP on ${server.url}; emit_event sends to ${process.env.WEBHOOK_URL}\n`);
} catch (err) {
  // A bad configuration value or a busy port: say what went wrong, without a stack trace.
  console.error(`fa-mcp-webhooks could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
