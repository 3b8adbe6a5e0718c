/** What MCP clients are told about this server at initialize (name, version and description come from package.json). */
import type { McpServerData } from 'fa-mcp-sdk';

export const PRODUCT_NAME = {{productName|json}};
export const DESCRIPTION = {{description|json}};

export const serverInfo: McpServerData['serverInfo'] = {
  title: PRODUCT_NAME,
};
