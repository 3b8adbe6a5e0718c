/**
 * custom-event (push, emit-only): raised by the trigger-event tool; no history, so its cursor is
 * always null and a stream gets what is raised while it is open — on any instance, over the
 * notification bus. alert (poll, push and webhook, replayable): the webhook-capable type, raised
 * by trigger-event when the call names a severity; a subscription may ask for one severity.
 */
import { formatToolResult, type IEventTypeData } from 'fa-mcp-sdk';
import { defineTool } from '../tools/define.js';

const SEVERITIES = ['info', 'warning', 'critical'];

export const customEvent: IEventTypeData = {
  name: 'custom-event',
  title: 'Custom event',
  description: 'An event raised on demand by the trigger-event tool. Emit-only: streams get what is raised while they are open.',
  delivery: ['push'],
  replay: false,
  payloadSchema: {
    type: 'object',
    properties: { message: { type: 'string' }, raisedAt: { type: 'string', format: 'date-time' } },
    required: ['message', 'raisedAt'],
  },
};

export const alert: IEventTypeData = {
  name: 'alert',
  title: 'Alert',
  description: 'An alert raised by the trigger-event tool with a severity. Poll, stream, or subscribe a webhook (an authenticated caller); filter with { severity }.',
  delivery: ['poll', 'push', 'webhook'],
  inputSchema: {
    type: 'object',
    properties: { severity: { type: 'string', enum: SEVERITIES } },
    additionalProperties: false,
  },
  payloadSchema: {
    type: 'object',
    properties: { message: { type: 'string' }, severity: { type: 'string', enum: SEVERITIES }, raisedAt: { type: 'string', format: 'date-time' } },
    required: ['message', 'severity', 'raisedAt'],
  },
  matcher: (args, payload) => args.severity === undefined || args.severity === payload.severity,
};

export const triggerEvent = defineTool('both', {
  name: 'trigger-event',
  title: 'Trigger event',
  description: 'Raises custom-event with the message (push streams open now receive it); with a severity, also raises alert (poll, push, webhook).',
  annotations: { readOnlyHint: false, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: {
      message: { type: 'string', minLength: 1, maxLength: 1000, description: 'What the event says' },
      severity: { type: 'string', enum: SEVERITIES, description: 'Also raise alert with this severity' },
    },
    required: ['message'],
    additionalProperties: false,
  },
  handler: async ({ arguments: args, events }) => {
    const raisedAt = new Date().toISOString();
    const message = String(args.message);
    const raised = [(await events.emit('custom-event', { message, raisedAt })).eventId];
    if (typeof args.severity === 'string') raised.push((await events.emit('alert', { message, severity: args.severity, raisedAt })).eventId);
    return formatToolResult({ raised });
  },
});
