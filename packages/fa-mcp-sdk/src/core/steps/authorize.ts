/**
 * Authorization of tool calls: the resolved tool's `requiredScopes` and
 * `requiredGroups` against the caller of the request context. Runs right after
 * resolve, on every transport and era; a refused call never reaches the
 * handler (JSON-RPC -32001, `data.error` `insufficient_scope` or `forbidden`).
 */
import { assertAccess } from '../../auth/access-check.js';
import { AuthError } from '../../auth/auth-error.js';
import type { PipelineStep } from '../pipeline.js';

export function authorizeStep(onRefused?: (reason: string, detail: Record<string, unknown>) => void): PipelineStep {
  return {
    name: 'authorize',
    methods: ['tools/call'],
    run(op, next) {
      if (op.tool) {
        try {
          assertAccess('tool', op.tool.name, op.tool, op.ctx);
        } catch (err) {
          if (err instanceof AuthError) onRefused?.(err.reason, { tool: op.tool.name, subject: op.ctx.auth?.subject });
          return Promise.reject(err);
        }
      }
      return next();
    },
  };
}
