import { ValidationError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';

/** A tool whose `execution.taskSupport` is `required` runs only as a task: a synchronous call is -32602. */
export function taskSupportStep(): PipelineStep {
  return {
    name: 'task-support',
    methods: ['tools/call'],
    async run(op, next) {
      if (op.tool?.execution?.taskSupport === 'required' && op.state.get('task') !== true) {
        throw new ValidationError(`Tool ${op.tool.name} runs only as a task: call it with a task parameter`, { field: 'task', reason: 'is required for this tool' });
      }
      return next();
    },
  };
}
