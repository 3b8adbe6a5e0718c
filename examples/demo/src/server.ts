/**
 * The demo server factory: everything the demo registers, started through
 * initMcpServer. `start.ts` calls it for `npm start`; tests call it with
 * `{ config: { webServer: { port: 0 } } }` to get a free port.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle, type PipelineStep } from 'fa-mcp-sdk';
import { explainTopicPrompt } from './prompts/explain-topic.js';
import { aboutResource } from './resources/about.js';
import { ratesTemplate } from './resources/rates-template.js';
import { demoTools } from './tools/index.js';
import { notePostedEvent } from './events/note-posted.js';

/** The package folder (holds config/ and package.json), from src/ or dist/ alike. */
export const DEMO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface DemoServerOptions extends Pick<InitOptions, 'config' | 'handleSignals' | 'logDestination' | 'env' | 'nodeEnv'> {
  /** Extra pipeline steps (audit, metrics, test probes), run around every tool call. */
  steps?: PipelineStep[];
}

export const demoServerData: McpServerData = {
  serverInfo: {
    title: 'fa-mcp-sdk demo',
    description: 'Full-feature demo of fa-mcp-sdk: structured output, validation, progress, elicitation, prompts and resources.',
  },
  instructions: [
    'Demo server of fa-mcp-sdk.',
    'get_time: current time in a time zone. convert_currency: convert an amount with fixed demo rates.',
    'slow_report: a long job with progress. ask_user: ask the user a question.',
    'Read demo://about for an overview and demo://rates/{currency} for rates.',
    'post_note: post a note; subscribe to the note.posted event (events/poll, events/stream) to see it arrive.',
  ].join('\n'),
  tools: demoTools,
  prompts: [explainTopicPrompt],
  resources: [aboutResource],
  resourceTemplates: [ratesTemplate],
  // The MCP Events extension (2026-07-28): post_note raises note.posted.
  events: [notePostedEvent],
  // slow_report logs its steps to the client; the tool list is announced as changing.
  capabilities: { logging: true, listChanged: ['tools'] },
};

export function createDemoServer(options: DemoServerOptions = {}): Promise<McpServerHandle> {
  const { steps, ...init } = options;
  const data: McpServerData = steps ? { ...demoServerData, steps: [...(demoServerData.steps ?? []), ...steps] } : demoServerData;
  return initMcpServer(data, { cwd: DEMO_ROOT, ...init });
}
