/**
 * simulate-research-query (2026-07-28, a task of the tasks extension): the call returns a task
 * handle, and the task works through four stages, one a second, each reported as its
 * statusMessage (tasks/get, on every instance with the PostgreSQL task store). With
 * ambiguous: true and a client that can answer a form, it first pauses at input_required with a
 * clarification request, which the client answers with tasks/update.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { formatToolResult } from 'fa-mcp-sdk';
import { canElicitForm } from './client-capabilities.js';
import { defineTool } from './define.js';

export const RESEARCH_STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
const STAGE_MS = 1000;

export const stageMessage = (i: number) => `Stage ${i + 1} of ${RESEARCH_STAGES.length}: ${RESEARCH_STAGES[i]}`;

export const simulateResearchQuery = defineTool('2026', {
  name: 'simulate-research-query',
  title: 'Simulate research query',
  description:
    'Researches a topic as a task, in four stages of a second each (follow them with tasks/get). With ambiguous: true and a client that answers forms, it first asks which meaning was meant (input_required, answered with tasks/update).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  execution: { taskSupport: 'required' },
  timeoutMs: 600_000,
  inputSchema: {
    type: 'object',
    properties: {
      topic: { type: 'string', minLength: 1, description: 'The topic to research' },
      ambiguous: { type: 'boolean', default: false, description: 'The topic is ambiguous: ask the user what was meant (when the client can answer forms)' },
    },
    required: ['topic'],
    additionalProperties: false,
  },
  handler: async ({ arguments: args, client, clientCapabilities, setTaskStatusMessage, signal }) => {
    let topic = String(args.topic);
    let clarified: string | null = null;
    if (args.ambiguous === true && canElicitForm(clientCapabilities)) {
      const reply = await client.elicit({
        mode: 'form',
        message: `"${topic}" can mean several things. Which one should the research cover?`,
        requestedSchema: {
          type: 'object',
          properties: { interpretation: { type: 'string', title: 'Meaning', description: `What "${topic}" means here` } },
          required: ['interpretation'],
        },
      });
      const meaning = (reply.content as Record<string, unknown> | undefined)?.interpretation;
      if (reply.action === 'accept' && typeof meaning === 'string' && meaning.trim()) {
        clarified = meaning.trim();
        topic = `${topic} (${clarified})`;
      }
    }
    const stages: string[] = [];
    for (let i = 0; i < RESEARCH_STAGES.length; i++) {
      setTaskStatusMessage(stageMessage(i));
      stages.push(RESEARCH_STAGES[i] as string);
      await sleep(STAGE_MS, undefined, { signal });
    }
    return formatToolResult({ topic, clarified, stages, report: `Research report on ${topic}: ${RESEARCH_STAGES.length} stages completed.` });
  },
});
