/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) for incoming HTTP
 * requests: a strict `traceparent` parser, a `tracestate` size cap, and an
 * express middleware that keeps both for the request.
 */
import type { Request, RequestHandler } from 'express';

export interface TraceParent {
  /** Two lowercase hex digits; '00' today. */
  version: string;
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  parentId: string;
  /** Two lowercase hex digits, as received. */
  flags: string;
  /** Bit 0 of `flags`. */
  sampled: boolean;
}

export interface TraceContext {
  traceparent?: TraceParent;
  /** Only kept with a valid traceparent, at most 512 characters. */
  tracestate?: string;
}

export const TRACESTATE_MAX_LENGTH = 512;
const TRACESTATE_LONG_MEMBER = 128;

/** version-traceid-parentid-flags; a later version may append `-...` fields. */
const TRACEPARENT_PREFIX = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})/;
const VERSION_00_LENGTH = 55;
const ALL_ZERO = /^0+$/;

/** Parses a `traceparent` header; undefined when absent or invalid. */
export function parseTraceparent(header: string | undefined): TraceParent | undefined {
  if (header === undefined) return undefined;
  const value = header.replace(/^[ \t]+|[ \t]+$/g, '');
  const match = TRACEPARENT_PREFIX.exec(value);
  if (!match) return undefined;
  const [, version = '', traceId = '', parentId = '', flags = ''] = match;

  if (version === 'ff') return undefined;
  if (version === '00' && value.length !== VERSION_00_LENGTH) return undefined;
  // A future version may be longer, but only with further '-'-separated fields.
  if (value.length > VERSION_00_LENGTH && value[VERSION_00_LENGTH] !== '-') return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;

  return { version, traceId, parentId, flags, sampled: (parseInt(flags, 16) & 0x01) === 0x01 };
}

/**
 * Trims `tracestate` to at most 512 characters as the specification suggests:
 * whole list members only, members longer than 128 characters dropped first,
 * then members removed from the end. Undefined when nothing remains.
 */
export function capTracestate(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (trimmed === '') return undefined;
  if (trimmed.length <= TRACESTATE_MAX_LENGTH) return trimmed;

  let members = trimmed
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '');
  members = members.filter((member) => member.length <= TRACESTATE_LONG_MEMBER);
  while (members.length > 0 && members.join(',').length > TRACESTATE_MAX_LENGTH) members.pop();
  return members.length > 0 ? members.join(',') : undefined;
}

const contexts = new WeakMap<Request, TraceContext>();

export function traceContextMiddleware(): RequestHandler {
  return (req, _res, next) => {
    contexts.set(req, readTraceContext(req));
    next();
  };
}

/** The trace context of this request (empty when none or invalid). */
export function getTraceContext(req: Request): TraceContext {
  return contexts.get(req) ?? readTraceContext(req);
}

function readTraceContext(req: Request): TraceContext {
  const header = req.headers.traceparent;
  const traceparent = parseTraceparent(typeof header === 'string' ? header : undefined);
  if (!traceparent) return {};
  // A tracestate without a valid traceparent must be ignored.
  const raw = req.headers.tracestate;
  const tracestate = capTracestate(Array.isArray(raw) ? raw.join(',') : raw);
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}
