/**
 * Errors of the Agent Tester, in the framework's error family: the model
 * endpoint failing (down, non-2xx, malformed answer, too slow) and requests the
 * Agent Tester refuses.
 */
import { ERROR_BRAND } from '../core/error-brand.js';
import { BaseMcpError, MCP_ERROR_CODES } from '../core/errors.js';

/** unreachable: no connection; http: a non-2xx status; malformed: not a Chat Completions answer; timeout: too slow; aborted: the caller gave up. */
export type ModelErrorKind = 'unreachable' | 'http' | 'malformed' | 'timeout' | 'aborted' | 'not_configured';

export class ModelEndpointError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ModelEndpointError';
  readonly kind: ModelErrorKind;
  readonly status?: number;

  constructor(kind: ModelErrorKind, message: string, status?: number) {
    const timeout = kind === 'timeout';
    super(message, timeout ? MCP_ERROR_CODES.TIMEOUT : MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, timeout ? 504 : kind === 'not_configured' ? 503 : 502, {
      kind,
      ...(status !== undefined ? { status } : {}),
    });
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** A request to the Agent Tester API that it refuses (bad body, busy session, …), with its HTTP status. */
export class AgentTesterRequestError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'AgentTesterRequestError';
  readonly error: string;

  constructor(httpStatus: number, error: string, message: string) {
    const code = httpStatus === 409 ? MCP_ERROR_CODES.CONFLICT : httpStatus >= 500 ? MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE : MCP_ERROR_CODES.INVALID_REQUEST;
    super(message, code, httpStatus, { error });
    this.error = error;
  }
}

/** Replaces every occurrence of each secret in `text` (error bodies may echo a key). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}
