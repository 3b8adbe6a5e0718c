import { MissingClientCapabilityError, ValidationError } from '../errors.js';
import type { Operation, PipelineStep } from '../pipeline.js';

/** The 2026-07-28 tasks extension (SEP-2663), declared under `capabilities.extensions`. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/**
 * Operation state keys the task layers set: `task` when the call runs as a
 * task, `tasks-offered` when the server offers the 2026-07-28 tasks extension
 * on this request (so a client that did not declare it can be told so).
 */
export const TASK_STATE = { task: 'task', offered: 'tasks-offered' } as const;

/**
 * `{ extensions: { <tasks extension>: {} } }` when the call is of a task-only tool that is not
 * running as a task on a 2026-07-28 request where the server offers the extension (the client
 * did not declare it), else undefined.
 */
export function missingTasksExtension(op: Operation): { extensions: Record<string, object> } | undefined {
  const needs = op.tool?.execution?.taskSupport === 'required' && op.state.get(TASK_STATE.task) !== true;
  return needs && op.ctx.era === '2026' && op.state.get(TASK_STATE.offered) === true ? { extensions: { [TASKS_EXTENSION_ID]: {} } } : undefined;
}

/**
 * A tool whose `execution.taskSupport` is `required` runs only as a task. A
 * synchronous call is refused before the handler runs: -32021 naming the
 * extension where the server offers it on 2026-07-28 (the client can declare
 * it and retry), -32602 otherwise.
 */
export function taskSupportStep(): PipelineStep {
  return {
    name: 'task-support',
    methods: ['tools/call'],
    run(op, next) {
      if (op.tool?.execution?.taskSupport === 'required' && op.state.get(TASK_STATE.task) !== true) {
        const extension = missingTasksExtension(op);
        if (extension) {
          return Promise.reject(
            new MissingClientCapabilityError(
              extension,
              `Tool ${op.tool.name} runs only as a task: declare the ${TASKS_EXTENSION_ID} extension in the request's client capabilities`,
            ),
          );
        }
        return Promise.reject(
          new ValidationError(`Tool ${op.tool.name} runs only as a task: call it with a task parameter`, { field: 'task', reason: 'is required for this tool' }),
        );
      }
      return next();
    },
  };
}
