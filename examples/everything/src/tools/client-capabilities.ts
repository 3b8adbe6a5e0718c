/**
 * Whether a client declared what a tool needs (`execution.requiredClientCapabilities`), judged
 * as the framework judges asks: an `elicitation` object that names no mode is form mode.
 */
import type { ITool } from 'fa-mcp-sdk';

type Needed = NonNullable<NonNullable<ITool['execution']>['requiredClientCapabilities']>;
type Declared = Record<string, unknown>;

const asObject = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined);

export function canElicitForm(caps: Declared): boolean {
  const elicitation = asObject(caps.elicitation);
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

export function canElicitUrl(caps: Declared): boolean {
  return asObject(caps.elicitation)?.url !== undefined;
}

/** Whether `caps` (what the client declared) covers every capability in `needed`. */
export function declares(caps: Declared, needed: Needed | undefined): boolean {
  if (!needed) return true;
  if (needed.sampling && !asObject(caps.sampling)) return false;
  if (needed.roots && !asObject(caps.roots)) return false;
  if (needed.elicitation?.form && !canElicitForm(caps)) return false;
  if (needed.elicitation?.url && !canElicitUrl(caps)) return false;
  if (needed.elicitation && !needed.elicitation.form && !needed.elicitation.url && !canElicitForm(caps)) return false;
  return true;
}
