/**
 * How the framework tells its errors apart: by brand (error-brand.ts), never by
 * the prototype of one build's class, so an error made by the other build of
 * the package (ESM or CommonJS) is recognised the same. Every place that maps
 * errors asks these, and asks `isToolExecutionError` before `isMcpError`: a
 * ToolExecutionError is of the family but becomes a tool result, not an error.
 */
import { isBrandedInstance } from './error-brand.js';
import { BaseMcpError, ToolExecutionError } from './errors.js';

/** An error of the framework's family (`BaseMcpError` or a subclass), from either build. */
export function isMcpError(value: unknown): value is BaseMcpError {
  return isBrandedInstance(BaseMcpError, value);
}

/** A `ToolExecutionError`, from either build: a tool's own failure, answered as an `isError` result. */
export function isToolExecutionError(value: unknown): value is ToolExecutionError {
  return isBrandedInstance(ToolExecutionError, value);
}

/** An error of the family whose code, message and data a client may see as they are (what `toWireError` passes on). */
export function isExposedMcpError(value: unknown): value is BaseMcpError {
  return isMcpError(value) && value.expose !== false;
}
