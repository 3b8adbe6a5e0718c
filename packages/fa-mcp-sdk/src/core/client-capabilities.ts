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

/** What a tool declares it needs of the client (`ITool.execution.requiredClientCapabilities`). */
export interface RequiredClientCapabilities {
  sampling?: JsonObject;
  elicitation?: JsonObject;
  roots?: JsonObject;
}

/**
 * The part of `required` the client did not declare, in the `ClientCapabilities`
 * shape, or undefined when it declared everything. Each kind is judged as an
 * input request of that kind is (missingClientCapability): `sampling: { tools: {} }`
 * needs tool use in sampling; an `elicitation` naming no mode means form mode,
 * one naming `form` and `url` needs both.
 */
export function missingRequiredCapabilities(required: RequiredClientCapabilities, declared: Record<string, unknown>): JsonObject | undefined {
  const parts: JsonObject[] = [];
  if (required.roots) parts.push(missingClientCapability('roots', {}, declared) ?? {});
  if (required.sampling) parts.push(missingClientCapability('sampling', isObject(required.sampling.tools) ? { tools: [] } : {}, declared) ?? {});
  if (required.elicitation) {
    const modes = (['form', 'url'] as const).filter((mode) => isObject(required.elicitation?.[mode]));
    for (const mode of modes.length > 0 ? modes : (['form'] as const)) parts.push(missingClientCapability('elicitation', { mode }, declared) ?? {});
  }
  const missing: JsonObject = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const held = missing[key];
      missing[key] = isObject(held) && isObject(value) ? { ...held, ...value } : value;
    }
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}
