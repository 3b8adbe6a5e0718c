/**
 * Which client capability an input request (elicitation, sampling, roots)
 * needs, and the refusal when the client did not declare it. The same rule on
 * both protocol eras: the declared capabilities come from `initialize` on
 * 2025-era connections and from each request's `_meta` on 2026-07-28.
 */
import { MissingClientCapabilityError } from './errors.js';
import type { JsonObject } from './types.js';

export type InputKind = 'elicitation' | 'sampling' | 'roots';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The part of the required capabilities the client did not declare, in the
 * `ClientCapabilities` shape (`{ elicitation: { url: {} } }`), or undefined.
 * An `elicitation` object that names neither mode means form mode (the rule
 * of the revisions before modes existed).
 */
export function missingClientCapability(kind: InputKind, params: JsonObject, declared: Record<string, unknown>): JsonObject | undefined {
  if (kind === 'roots') return isObject(declared.roots) ? undefined : { roots: {} };
  if (kind === 'sampling') {
    const sampling = declared.sampling;
    if (!isObject(sampling)) return { sampling: {} };
    const usesTools = params.tools !== undefined || params.toolChoice !== undefined;
    return usesTools && !isObject(sampling.tools) ? { sampling: { tools: {} } } : undefined;
  }
  const elicitation = declared.elicitation;
  const mode = params.mode === 'url' ? 'url' : 'form';
  if (!isObject(elicitation)) return { elicitation: { [mode]: {} } };
  const namesModes = 'form' in elicitation || 'url' in elicitation;
  if (mode === 'form') return !namesModes || isObject(elicitation.form) ? undefined : { elicitation: { form: {} } };
  return isObject(elicitation.url) ? undefined : { elicitation: { url: {} } };
}

/** Throws MissingClientCapabilityError (-32021) when the client cannot serve this input request. */
export function assertClientCapability(kind: InputKind, params: JsonObject, declared: Record<string, unknown>): void {
  const missing = missingClientCapability(kind, params, declared);
  if (missing) {
    const what = kind === 'elicitation' ? `elicitation (${params.mode === 'url' ? 'url' : 'form'} mode)` : kind;
    throw new MissingClientCapabilityError(missing, `This request needs the client capability "${what}", which the client did not declare`);
  }
}
