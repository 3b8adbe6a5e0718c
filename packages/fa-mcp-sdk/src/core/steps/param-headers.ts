import { HeaderMismatchError } from '../errors.js';
import { findParamHeaderMismatch, type ParamHeaderRules } from '../param-headers.js';
import type { PipelineStep } from '../pipeline.js';

/**
 * Checks the `Mcp-Param-*` headers of a 2026-07-28 tools/call that came over
 * Streamable HTTP against the resolved tool's `x-mcp-header` arguments
 * (param-headers.ts): a missing, malformed or disagreeing header is -32020
 * (HTTP 400) with `data.mismatch`, and the handler never runs. One step for
 * every route and however the tool was registered (a static array or a
 * function of the request). stdio and 2025-era requests carry no such headers
 * and are not checked.
 */
export function paramHeadersStep(rules: ParamHeaderRules): PipelineStep {
  return {
    name: 'param-headers',
    methods: ['tools/call'],
    run(op, next) {
      const { tool, ctx } = op;
      if (!tool || ctx.era !== '2026' || ctx.transport !== 'http') return next();
      const declarations = rules.of(tool);
      if (declarations.length === 0) return next();
      const mismatch = findParamHeaderMismatch(declarations, op.params.arguments, ctx.headers);
      return mismatch ? Promise.reject(new HeaderMismatchError(mismatch)) : next();
    },
  };
}
