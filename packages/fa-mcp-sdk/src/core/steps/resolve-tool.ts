import { ValidationError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';
import type { Registry } from '../registry.js';

/** Finds the called tool; an unknown or excluded name is `-32602`. */
export function resolveToolStep(registry: Registry): PipelineStep {
  return {
    name: 'resolve',
    methods: ['tools/call'],
    async run(op, next) {
      const name = op.params.name;
      if (typeof name !== 'string') throw new ValidationError('Tool name is required', { field: 'name', reason: 'is required' });
      const tool = await registry.findTool(name, op.ctx);
      if (!tool) throw new ValidationError(`Unknown tool: ${name}`, { field: 'name', reason: 'unknown tool' });
      op.tool = tool;
      return next();
    },
  };
}
