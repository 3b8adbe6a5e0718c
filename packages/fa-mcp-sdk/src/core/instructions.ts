/**
 * Server instructions assembled from parts under a character budget (a common
 * client keeps 2,048 characters and cuts the rest without a word). Index entries
 * that route to an excluded tool are dropped, and the text says which tools are
 * left out, by name while the budget allows, by count otherwise.
 */
import { ERROR_BRAND } from './error-brand.js';
import { BaseMcpError, MCP_ERROR_CODES } from './errors.js';

export interface IInstructionsIndexEntry {
  /** The tools this line routes to; the line is dropped when any of them is excluded. */
  tools: string[];
  text: string;
}

export interface IInstructionsParts {
  /** A sentence in front of everything (e.g. a one-off notice). */
  notice?: string;
  opening: string;
  /** Heading line of the index; default "What to call for what:". */
  indexTitle?: string;
  index?: IInstructionsIndexEntry[];
  note?: string;
  close?: string;
}

export interface AssembledInstructions {
  text: string;
  length: number;
  budget: number;
  droppedEntries: number;
  /** Which listing variant went in (0 = the most detailed), -1 when none fitted; absent without a listing. */
  listingLevel?: number;
}

/** The instructions are over their budget; stops the start. Not exposed (-32603 if it reaches a client). */
export class InstructionsBudgetError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'InstructionsBudgetError';
  override readonly expose: boolean = false;
  constructor(
    readonly length: number,
    readonly budget: number,
  ) {
    super(
      `Server instructions are ${length} characters, over the budget of ${budget} (mcp.instructions.budget). Shorten them.`,
      MCP_ERROR_CODES.INTERNAL_ERROR,
      500,
    );
  }
}

export function assembleInstructions(
  source: string | IInstructionsParts,
  budget: number,
  excluded: readonly string[] = [],
  listing: readonly string[] = [],
): AssembledInstructions {
  // A plain string is the consumer's whole text: no exclusion note, a listing after it.
  const parts: IInstructionsParts = typeof source === 'string' ? { opening: source } : source;
  const excludedSet = new Set(typeof source === 'string' ? [] : excluded);
  const entries = (parts.index ?? []).filter((e) => !e.tools.some((t) => excludedSet.has(t)));
  const dropped = (parts.index?.length ?? 0) - entries.length;
  const build = (exclusion: string | undefined, list: string | undefined) =>
    [
      parts.notice,
      parts.opening,
      exclusion,
      entries.length > 0 ? [parts.indexTitle ?? 'What to call for what:', ...entries.map((e) => `- ${e.text}`)].join('\n') : undefined,
      parts.note,
      list,
      parts.close,
    ]
      .filter((p): p is string => !!p && p.trim().length > 0)
      .join('\n\n');

  const n = excludedSet.size;
  // The exclusion note and the listing are courtesies: each shrinks (names, then a count) and then goes
  // before the text is refused; the exclusion note is the last to go.
  const notes = n === 0 ? [] : [`Not available on this server: ${[...excludedSet].sort().join(', ')}.`, `${n} tool${n === 1 ? ' is' : 's are'} not available on this server.`];
  const candidates: Array<[string | undefined, number]> = [
    ...notes.flatMap((note) => listing.map((_, level): [string, number] => [note, level])),
    ...notes.map((note): [string, number] => [note, -1]),
    ...listing.map((_, level): [undefined, number] => [undefined, level]),
  ];
  for (const [note, level] of candidates) {
    const text = build(note, listing[level]);
    if (text.length <= budget) return { ...check(text, budget, dropped), ...(listing.length > 0 ? { listingLevel: level } : {}) };
  }
  return { ...check(build(undefined, undefined), budget, dropped), ...(listing.length > 0 ? { listingLevel: -1 } : {}) };
}

function check(text: string, budget: number, droppedEntries: number): AssembledInstructions {
  if (text.length > budget) throw new InstructionsBudgetError(text.length, budget);
  return { text, length: text.length, budget, droppedEntries };
}
