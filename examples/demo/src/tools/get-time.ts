/**
 * get_time: the current time, as structured output checked against an outputSchema.
 * An unknown time zone is a tool-level failure (ToolExecutionError -> isError result).
 */
import { formatToolResult, ToolExecutionError, type ITool } from 'fa-mcp-sdk';

/**
 * Intl.DateTimeFormat objects per time zone, at most `max`; the least recently used goes first.
 * Building a formatter per call is slow, and its ICU data lives in native memory that V8 does not
 * count: the heap stays small, the garbage collector runs rarely, and a server building one per
 * call grew by ~30 KB a call under load (GBs at a few thousand calls a second). A Map keeps
 * insertion order, so its first key is the least recently used.
 */
export function createFormatterCache(max = 32) {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  return {
    /** The formatter of `timeZone`; throws a RangeError for an unknown time zone (nothing is cached then). */
    get(timeZone: string): Intl.DateTimeFormat {
      let formatter = formatters.get(timeZone);
      if (formatter) {
        formatters.delete(timeZone); // re-inserted below: now the most recently used
      } else {
        formatter = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'long' });
        const oldest = formatters.keys().next();
        if (formatters.size >= max && !oldest.done) formatters.delete(oldest.value);
      }
      formatters.set(timeZone, formatter);
      return formatter;
    },
    /** The cached time zones, least recently used first. */
    zones: (): string[] => [...formatters.keys()],
  };
}

export type FormatterCache = ReturnType<typeof createFormatterCache>;

const formatters = createFormatterCache();

export interface TimeInfo {
  iso: string;
  unixMs: number;
  timeZone: string;
  local: string;
}

export function describeTime(now: Date, timeZone: string, cache: FormatterCache = formatters): TimeInfo {
  let local: string;
  try {
    local = cache.get(timeZone).format(now);
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
