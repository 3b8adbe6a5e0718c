import { ValidationError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';
import type { Registry } from '../registry.js';
import type { ITool } from '../types.js';

/** Finds the called tool; an unknown or excluded name is `-32602`. */
export function resolveToolStep(registry: Registry): PipelineStep {
  return {
    name: 'resolve',
    methods: ['tools/call'],
    run(op, next) {
      const name = op.params.name;
      if (typeof name !== 'string') return Promise.reject(new ValidationError('Tool name is required', { field: 'name', reason: 'is required' }));
      const proceed = (tool: ITool | undefined): Promise<unknown> => {
        if (!tool) return Promise.reject(new ValidationError(`Unknown tool: ${name}`, { field: 'name', reason: 'unknown tool' }));
        op.tool = tool;
        return next();
      };
      // Static tools are found at once; dynamic ones (a function of the request) after their promise.
      const found = registry.lookupTool(name, op.ctx);
      return found instanceof Promise ? found.then(proceed) : proceed(found);
    },
  };
}
