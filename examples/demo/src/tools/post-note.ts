/**
 * post_note: posts a note and emits `note.posted` (src/events/note-posted.ts) through
 * `params.events`: every poll, push stream and webhook subscription whose tag matches gets it.
 */
import { formatToolResult, type ITool } from 'fa-mcp-sdk';

export const postNoteTool: ITool = {
  name: 'post_note',
  title: 'Post a note',
  description: 'Posts a short note; clients subscribed to the note.posted event receive it.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1, maxLength: 500 },
      tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 40 }, maxItems: 10 },
    },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, idempotentHint: false },
  handler: async ({ arguments: args, events }) => {
    const note = { text: String(args.text), tags: Array.isArray(args.tags) ? args.tags.map(String) : [], postedAt: new Date().toISOString() };
    const { eventId } = await events.emit('note.posted', note);
    return formatToolResult({ posted: true, eventId });
  },
};
