/**
 * A tool that declares the client capabilities it needs
 * (`execution.requiredClientCapabilities`) is refused to a client that did not
 * declare them, before it runs and before any task is created: -32021 naming
 * what is missing in `data.requiredCapabilities`. Where the call also lacks the
 * tasks extension a task-only tool needs (task-support.ts), the refusal names both.
 */
import { missingRequiredCapabilities } from '../client-capabilities.js';
import { MissingClientCapabilityError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';
import { missingTasksExtension } from './task-support.js';

/** Readable names of the missing capabilities: `sampling`, `elicitation (form mode)`. */
export function describeMissing(missing: Record<string, unknown>): string {
  return Object.entries(missing)
    .map(([key, value]) => {
      const modes = key === 'elicitation' && value && typeof value === 'object' ? Object.keys(value) : [];
      if (key === 'extensions' && value && typeof value === 'object') return Object.keys(value).join(', ');
      return modes.length > 0 ? `${key} (${modes.join(' and ')} mode)` : key;
    })
    .join(', ');
}

export function requiredCapabilitiesStep(): PipelineStep {
  return {
    name: 'required-client-capabilities',
    methods: ['tools/call'],
    run(op, next) {
      const required = op.tool?.execution?.requiredClientCapabilities;
      const missing = required ? missingRequiredCapabilities(required, op.ctx.clientCapabilities) : undefined;
      if (!missing || !op.tool) return next();
      const all = { ...missing, ...missingTasksExtension(op) };
      return Promise.reject(
        new MissingClientCapabilityError(all, `Tool ${op.tool.name} needs the client capabilities ${describeMissing(all)}, which the client did not declare`),
      );
    },
  };
}
