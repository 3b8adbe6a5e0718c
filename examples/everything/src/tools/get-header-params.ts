/**
 * get-header-params (both eras): its region argument and the Mcp-Param-Region header it arrived
 * in. region carries `x-mcp-header: "Region"`, so a 2026-07-28 Streamable HTTP client mirrors it
 * into that header, and the framework refuses a call whose header disagrees with the body
 * (-32020) before this handler runs. The header is null on stdio and for a 2025-era client.
 */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool, JSON_SCHEMA_2020 } from './define.js';

export const getHeaderParams = defineTool('both', {
  name: 'get-header-params',
  title: 'Get header params',
  description: 'Returns its region argument and the Mcp-Param-Region HTTP header it arrived in (null on stdio and for 2025-era clients).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    $schema: JSON_SCHEMA_2020,
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region', description: 'A region, mirrored into the Mcp-Param-Region header' } },
    required: ['region'],
    additionalProperties: false,
  },
  outputSchema: {
    $schema: JSON_SCHEMA_2020,
    type: 'object',
    properties: {
      region: { type: 'string', description: 'The region argument' },
      header: { type: ['string', 'null'], description: 'The Mcp-Param-Region header, or null' },
    },
    required: ['region', 'header'],
    additionalProperties: false,
  },
  handler: ({ arguments: args, context }) =>
    formatToolResult({ region: String(args.region), header: context.era === '2026' ? (context.headers?.['mcp-param-region'] ?? null) : null }),
});
