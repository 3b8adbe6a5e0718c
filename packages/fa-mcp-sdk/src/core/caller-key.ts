/** Who a request counts against, for rate limits and concurrency caps. */
import type { RequestContext } from './request-context.js';

export type LimitScope = 'ip' | 'subject' | 'global';

export function callerKey(ctx: RequestContext, scope: LimitScope): string {
  if (scope === 'global') return 'global';
  if (scope === 'subject' && ctx.auth?.subject) return `sub:${ctx.auth.subject}`;
  if (ctx.remoteAddress) return `ip:${ctx.remoteAddress}`;
  // stdio has one caller: the process on the other end of the pipe
  return ctx.transport === 'stdio' ? 'stdio' : 'anonymous';
}

/** The identity for per-caller caps: the subject when authenticated, else the address. */
export function subjectKey(ctx: RequestContext): string {
  return callerKey(ctx, 'subject');
}
