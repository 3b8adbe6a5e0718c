/**
 * get_time: the current time, as structured output checked against an outputSchema.
 * An unknown time zone is a tool-level failure (ToolExecutionError -> isError result).
 */
import { formatToolResult, ToolExecutionError, type ITool } from 'fa-mcp-sdk';

export interface TimeInfo {
  iso: string;
  unixMs: number;
  timeZone: string;
  local: string;
}

export function describeTime(now: Date, timeZone: string): TimeInfo {
  let local: string;
  try {
    local = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now);
  } catch {
    throw new ToolExecutionError(`Unknown time zone "${timeZone}". Use an IANA name such as "Europe/Berlin" or "UTC".`, {
      timeZone,
    });
  }
  return { iso: now.toISOString(), unixMs: now.getTime(), timeZone, local };
}

export const getTimeTool: ITool = {
  name: 'get_time',
  title: 'Current time',
  description: 'Returns the current time in UTC and in the requested IANA time zone.',
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      timeZone: {
        type: 'string',
        description: 'IANA time zone, e.g. "Europe/Berlin". Default "UTC".',
        minLength: 1,
        maxLength: 64,
      },
    },
    additionalProperties: false,
  },
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      iso: { type: 'string', format: 'date-time', description: 'UTC time, ISO 8601.' },
      unixMs: { type: 'integer', description: 'Milliseconds since the Unix epoch.' },
      timeZone: { type: 'string' },
      local: { type: 'string', description: 'Human-readable time in timeZone.' },
    },
    required: ['iso', 'unixMs', 'timeZone', 'local'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    const timeZone = typeof args.timeZone === 'string' ? args.timeZone : 'UTC';
    return formatToolResult(describeTime(new Date(), timeZone));
  },
};
