/**
 * The events the framework itself sends (`webhooks.taskEvents`): a task ended
 * as `task.completed`, `task.failed` or `task.cancelled`, with the task id,
 * the tool, the caller's subject, and the status message. The idempotency key
 * is the task id and status, so an end recorded twice queues one event.
 */
import type { IWebhookSender } from './webhook-types.js';

/** The fields of a finished task the event carries (a structural view of ITaskRecord). */
export interface FinishedTask {
  taskId: string;
  toolName: string;
  status: string;
  statusMessage?: string;
  owner: string;
  caller?: { subject?: string };
}

export const TASK_EVENT_TYPES = ['task.completed', 'task.failed', 'task.cancelled'] as const;

export function taskEventHook(sender: IWebhookSender): (task: FinishedTask) => Promise<void> {
  return async (task) => {
    const type = `task.${task.status}`;
    if (!(TASK_EVENT_TYPES as readonly string[]).includes(type)) return;
    await sender.send(
      type,
      {
        taskId: task.taskId,
        tool: task.toolName,
        status: task.status,
        subject: task.caller?.subject ?? null,
        ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      },
      { idempotencyKey: `task_${task.taskId}_${task.status}` },
    );
  };
}
