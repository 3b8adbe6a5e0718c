/**
 * note.posted: an event type a newcomer can watch working. The post_note tool raises it;
 * a client polls it (events/poll), holds a push stream (events/stream), or — with an
 * authenticated caller — subscribes a webhook (events/subscribe). A subscription may ask
 * only for notes carrying a tag (the matcher reads its `tag` argument).
 */
import type { IEventTypeData } from 'fa-mcp-sdk';

export const notePostedEvent: IEventTypeData = {
  name: 'note.posted',
  title: 'Note posted',
  description: 'A note was posted with the post_note tool. Subscribe with { tag } to get only the notes carrying that tag.',
  delivery: ['poll', 'push', 'webhook'],
  inputSchema: {
    type: 'object',
    properties: { tag: { type: 'string', minLength: 1, maxLength: 40, description: 'Only notes with this tag.' } },
    additionalProperties: false,
  },
  payloadSchema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      postedAt: { type: 'string', format: 'date-time' },
    },
    required: ['text', 'tags', 'postedAt'],
  },
  matcher: (args, note) => typeof args.tag !== 'string' || (note.tags as string[]).includes(args.tag),
};
