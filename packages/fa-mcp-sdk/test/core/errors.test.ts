import { describe, expect, it } from 'vitest';
import { createJsonRpcErrorResponse, toWireError } from '../../src/core/error-mapping.js';
import {
  BaseMcpError, ConflictError, ForbiddenError, InternalError, MCP_ERROR_CODES, MethodNotFoundError, PayloadTooLargeError,
  RateLimitedError, ResourceNotFoundError, ServerError, TimeoutError, ToolExecutionError, UpstreamUnavailableError,
  ValidationError,
} from '../../src/core/errors.js';

describe('error classes', () => {
  it.each([
    ['ValidationError', new ValidationError('bad', { field: 'x' }), -32602, 400],
    ['InternalError', new InternalError('broken'), -32603, 500],
    ['ResourceNotFoundError', new ResourceNotFoundError('test://missing'), -32002, 404],
    ['RateLimitedError', new RateLimitedError('slow down', 7), -32003, 429],
    ['TimeoutError', new TimeoutError('too slow'), -32004, 504],
    ['PayloadTooLargeError', new PayloadTooLargeError('too big'), -32005, 413],
    ['UpstreamUnavailableError', new UpstreamUnavailableError('db down'), -32006, 503],
    ['ConflictError', new ConflictError('version mismatch'), -32007, 409],
    ['ForbiddenError', new ForbiddenError('no scope'), -32001, 403],
  ])('%s carries its JSON-RPC code and HTTP status', (name, err, code, status) => {
    expect(err).toBeInstanceOf(BaseMcpError);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe(name);
    expect(err.code).toBe(code);
    expect(err.httpStatus).toBe(status);
  });

  it('MCP_ERROR_CODES names the codes of the contract', () => {
    expect(MCP_ERROR_CODES).toMatchObject({
      INVALID_PARAMS: -32602,
      INTERNAL_ERROR: -32603,
      RESOURCE_NOT_FOUND: -32002,
      RATE_LIMITED: -32003,
      TIMEOUT: -32004,
      PAYLOAD_TOO_LARGE: -32005,
      UPSTREAM_UNAVAILABLE: -32006,
      CONFLICT: -32007,
    });
  });

  it('ResourceNotFoundError puts the uri in data and in the default message', () => {
    const err = new ResourceNotFoundError('test://nope');
    expect(err.data).toEqual({ uri: 'test://nope' });
    expect(err.message).toContain('test://nope');
  });

  it('RateLimitedError puts retryAfter (seconds) in data next to the caller data', () => {
    const err = new RateLimitedError('slow down', 12, { limit: 100 });
    expect(err.data).toEqual({ limit: 100, retryAfter: 12 });
  });

  it('keeps data absent when none is given', () => {
    expect(new TimeoutError('x').data).toBeUndefined();
    expect(JSON.parse(JSON.stringify({ data: new TimeoutError('x').data }))).toEqual({});
  });

  it('MethodNotFoundError is -32601', () => {
    expect(new MethodNotFoundError('nope').code).toBe(-32601);
  });

  it('ServerError takes an explicit status and code', () => {
    const err = new ServerError('teapot', 418, { a: 1 }, MCP_ERROR_CODES.CONFLICT);
    expect([err.code, err.httpStatus, err.data]).toEqual([-32007, 418, { a: 1 }]);
    const dflt = new ServerError('plain');
    expect([dflt.code, dflt.httpStatus]).toEqual([-32603, 500]);
  });

  it('ToolExecutionError is of the family but not exposed (a tool result, not a protocol error)', () => {
    const err = new ToolExecutionError('city not found', { city: 'Atlantis' });
    expect(err).toBeInstanceOf(BaseMcpError);
    expect(err.expose).toBe(false);
    expect(err.name).toBe('ToolExecutionError');
    expect(err.data).toEqual({ city: 'Atlantis' });
  });
});

describe('toWireError', () => {
  it('keeps code, message, status and data of the family', () => {
    const wire = toWireError(new RateLimitedError('slow down', 3), 'req-9');
    expect(wire).toEqual({ code: -32003, message: 'slow down', httpStatus: 429, data: { retryAfter: 3 } });
  });

  it('omits data when the error has none', () => {
    expect(toWireError(new TimeoutError('late'))).toEqual({ code: -32004, message: 'late', httpStatus: 504 });
  });

  it('hides the message and the stack of a plain Error and names the request id', () => {
    const secret = new Error('connect ECONNREFUSED 10.0.0.7:5432 at /srv/app/node_modules/pg/lib/client.js:132');
    const wire = toWireError(secret, 'req-abc');
    expect(wire.code).toBe(-32603);
    expect(wire.httpStatus).toBe(500);
    expect(wire.message).toContain('req-abc');
    expect(wire.data).toEqual({ requestId: 'req-abc' });
    const serialized = JSON.stringify(wire);
    expect(serialized).not.toContain('ECONNREFUSED');
    expect(serialized).not.toContain('/srv/app');
    expect(serialized).not.toContain(secret.stack?.split('\n')[1]?.trim() ?? 'never');
  });

  it('maps thrown non-errors to the generic internal error, without a request id when none is known', () => {
    expect(toWireError('boom')).toEqual({ code: -32603, message: 'Internal error', httpStatus: 500 });
    expect(toWireError(undefined).code).toBe(-32603);
  });

  it('a ToolExecutionError reaching the mapper is sanitized like any unexpected error', () => {
    const wire = toWireError(new ToolExecutionError('internal detail'), 'r1');
    expect(wire.message).not.toContain('internal detail');
  });

  it('createJsonRpcErrorResponse builds the JSON-RPC envelope without httpStatus', () => {
    const res = createJsonRpcErrorResponse(7, new ValidationError('bad cursor', { field: 'cursor' }));
    expect(res).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad cursor', data: { field: 'cursor' } } });
    const hidden = createJsonRpcErrorResponse(null, new Error('/etc/passwd'), 'rid');
    expect(hidden.error.message).not.toContain('/etc/passwd');
    expect(hidden.error).toEqual({ code: -32603, message: expect.stringContaining('rid'), data: { requestId: 'rid' } });
  });
});
