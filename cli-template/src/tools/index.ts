/** Every tool of this server. Add a tool: one file in this folder, one line here, a test, the contract snapshot and docs/tools.md (`npm run docs:tools`). */
import type { ITool } from 'fa-mcp-sdk';
import type { ServerConfig } from '../custom-config.js';
import { convertTemperatureTool } from './convert-temperature.js';
import { sayHelloTool } from './say-hello.js';

export function createTools(config: ServerConfig): ITool[] {
  return [sayHelloTool(config.app), convertTemperatureTool];
}
