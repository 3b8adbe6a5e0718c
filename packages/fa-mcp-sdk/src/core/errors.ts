/**
 * The one error family of fa-mcp-sdk. Every error the framework emits, and every
 * error a consumer may throw on purpose, carries a JSON-RPC code, an HTTP status
 * and `data` that is safe to send to a client. Each class names its kind under
 * the brand (error-brand.ts), so `instanceof` works across the ESM and CommonJS
 * builds.
 */
import { brandError, ERROR_BRAND, isBrandedInstance, ownKind } from './error-brand.js';

export const MCP_ERROR_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  RESOURCE_NOT_FOUND: -32002,
  RATE_LIMITED: -32003,
  TIMEOUT: -32004,
  PAYLOAD_TOO_LARGE: -32005,
  UPSTREAM_UNAVAILABLE: -32006,
  CONFLICT: -32007,
  FORBIDDEN: -32001,
  /** 2026-07-28: a header disagrees with the body (an `Mcp-Param-*` header with its `x-mcp-header` argument: `data.mismatch`). */
  HEADER_MISMATCH: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare (`data.requiredCapabilities`). */
  MISSING_CLIENT_CAPABILITY: -32021,
} as const;

export type McpErrorCode = (typeof MCP_ERROR_CODES)[keyof typeof MCP_ERROR_CODES];

export interface IMcpErrorData {
  [key: string]: unknown;
}

export class BaseMcpError extends Error {
  /** The kind this class stands for; each framework subclass names its own. */
  static readonly [ERROR_BRAND]: string = 'BaseMcpError';
  /** The kinds of this error's class chain, e.g. `['ConflictError', 'BaseMcpError']` (hidden, read-only). */
  declare readonly [ERROR_BRAND]: readonly string[];

  /**
   * `instanceof` by brand: true for an error of this class (or a subclass)
   * made by either build of the package; a consumer's own subclass keeps the
   * ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(this, value);
  }

  readonly code: number;
  readonly httpStatus: number;
  readonly data?: IMcpErrorData;
  /** true when the message is written for clients (safe to send as is); false maps like an unexpected error. */
  readonly expose: boolean = true;

  constructor(message: string, code: number, httpStatus: number, data?: IMcpErrorData) {
    super(message);
    brandError(this, new.target);
    this.name = ownKind(new.target) ?? new.target.name;
    this.code = code;
    this.httpStatus = httpStatus;
    if (data !== undefined) this.data = data;
  }
}

export class ValidationError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ValidationError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.INVALID_PARAMS, 400, data);
  }
}

export class ResourceNotFoundError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ResourceNotFoundError';
  constructor(uri: string, message = `Resource not found: ${uri}`) {
    super(message, MCP_ERROR_CODES.RESOURCE_NOT_FOUND, 404, { uri });
  }
}

export class TimeoutError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'TimeoutError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.TIMEOUT, 504, data);
  }
}

export class PayloadTooLargeError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'PayloadTooLargeError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, 413, data);
  }
}

export class RateLimitedError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'RateLimitedError';
  constructor(message: string, retryAfterSec: number, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.RATE_LIMITED, 429, { ...data, retryAfter: retryAfterSec });
  }
}

export class UpstreamUnavailableError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'UpstreamUnavailableError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 503, data);
  }
}

export class ConflictError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ConflictError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.CONFLICT, 409, data);
  }
}

export class ForbiddenError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ForbiddenError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.FORBIDDEN, 403, data);
  }
}

export class MethodNotFoundError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'MethodNotFoundError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.METHOD_NOT_FOUND, 404, data);
  }
}

/**
 * The request needs a client capability (elicitation, sampling, roots) the
 * client did not declare. `data.requiredCapabilities` names only what is
 * missing, in the `ClientCapabilities` shape, e.g. `{ sampling: {} }`.
 */
export class MissingClientCapabilityError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'MissingClientCapabilityError';
  constructor(requiredCapabilities: Record<string, unknown>, message?: string) {
    const names = Object.keys(requiredCapabilities).join(', ');
    super(message ?? `The client did not declare the capability this request needs: ${names}`, MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY, 400, {
      requiredCapabilities,
    });
  }
}

/**
 * 2026-07-28 over Streamable HTTP: an `Mcp-Param-*` header is missing, malformed or
 * disagrees with the `x-mcp-header` argument it mirrors (core/param-headers.ts).
 * Answered with HTTP 400 on every route, as the protocol requires.
 */
export class HeaderMismatchError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'HeaderMismatchError';
  constructor(mismatch: { header: string; body: string }) {
    super(`Bad Request: the request headers and body disagree: ${mismatch.body}`, MCP_ERROR_CODES.HEADER_MISMATCH, 400, { mismatch: { header: mismatch.header, body: mismatch.body } });
  }
}

/** The framework itself failed, or a tool broke its own contract. */
export class InternalError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'InternalError';
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.INTERNAL_ERROR, 500, data);
  }
}

/**
 * The client cancelled the request while its handler ran (the handler stopped
 * with whatever its signal made it throw). Normal use, not a failure: logged
 * at info with the reason. Internal: a cancelled request gets no answer.
 */
export class RequestCancelledError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'RequestCancelledError';
  readonly reason: string;
  constructor(reason: unknown, cause?: unknown) {
    const text = reason instanceof Error ? reason.message : String(reason ?? 'no reason given');
    super(`The request was cancelled by the client: ${text}`, MCP_ERROR_CODES.INTERNAL_ERROR, 500);
    this.reason = text;
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * Thrown by a tool handler for an expected failure of the tool's own work. It is
 * not a protocol error: the client receives a tool result with `isError: true`
 * and this message, so the model can read it and react. Every place that maps
 * the family checks for it first. Thrown anywhere else (a prompt, a resource, a
 * REST route) it is not exposed: it maps like an unexpected error (-32603).
 */
export class ToolExecutionError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ToolExecutionError';
  override readonly expose: boolean = false;
  constructor(message: string, data?: IMcpErrorData) {
    super(message, MCP_ERROR_CODES.INTERNAL_ERROR, 500, data);
  }
}

/** A general server error with an explicit HTTP status, for consumers' REST code. */
export class ServerError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ServerError';
  constructor(message: string, httpStatus = 500, data?: IMcpErrorData, code: number = MCP_ERROR_CODES.INTERNAL_ERROR) {
    super(message, code, httpStatus, data);
  }
}
