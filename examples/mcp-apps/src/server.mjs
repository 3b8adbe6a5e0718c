// @ts-check
/**
 * Starts the MCP Apps example on Streamable HTTP.
 *
 *   pnpm start        # builds the view, then http://127.0.0.1:3002/mcp (HOST and PORT override)
 *
 * SIGTERM and SIGINT stop it gracefully (initMcpServer handles both).
 */
import { initMcpServer } from 'fa-mcp-sdk';
import { forecastServer } from './server-data.mjs';

const server = await initMcpServer(forecastServer());
server.logger.info(`forecast card served as ui://forecast/card.html; MCP endpoint ${server.url}`);
