/**
 * Wire shapes of the 2026-07-28 tasks extension (SEP-2663): a flat task
 * (`ttlMs`, `pollIntervalMs`, ISO timestamps), the CreateTaskResult of
 * `tools/call` (`resultType: "task"`), and the DetailedTask of `tasks/get`
 * with the result, the error or the outstanding input requests inlined.
 */
import { toTaskDto, type ITaskRecord } from '../tasks/task-types.js';

const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The 2025 task shape with the SEP-2663 field names (`ttlMs`, `pollIntervalMs`, integers). */
function taskFields(record: ITaskRecord): Record<string, unknown> {
  const { ttl: _ttl, pollInterval: _poll, ...fields } = toTaskDto(record);
  return { ...fields, ttlMs: Math.round(record.ttlMs), pollIntervalMs: Math.max(1, Math.round(record.pollIntervalMs)) };
}

/** The answer of a `tools/call` that became a task. */
export function toCreateTaskResult(record: ITaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(record) };
}

/** The answer of `tasks/get`. */
export function toDetailedTask(record: ITaskRecord): Record<string, unknown> {
  const detailed = taskFields(record);
  if (record.status === 'completed' && record.result) {
    // The task id is at the root; the 2025 related-task marker has no place here.
    const { _meta, ...result } = record.result;
    const meta = _meta && typeof _meta === 'object' ? { ...(_meta as Record<string, unknown>) } : undefined;
    if (meta) delete meta[RELATED_TASK_META];
    // Inlined like a synchronous 2026 answer: `resultType: "complete"` (the ext-tasks client requires it).
    const complete = { ...result, resultType: 'complete' };
    detailed.result = meta && Object.keys(meta).length > 0 ? { ...complete, _meta: meta } : complete;
  } else if (record.status === 'failed') {
    detailed.error = record.error ?? { code: -32603, message: record.statusMessage ?? 'The task failed' };
  } else if (record.status === 'input_required' && record.inputRequests && Object.keys(record.inputRequests).length > 0) {
    detailed.inputRequests = record.inputRequests;
  }
  return detailed;
}
