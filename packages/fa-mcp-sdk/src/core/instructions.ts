/**
 * Server instructions assembled from parts under a character budget (a common
 * client keeps 2,048 characters and cuts the rest without a word). Index entries
 * that route to an excluded tool are dropped, and the text says which tools are
 * left out, by name while the budget allows, by count otherwise.
 */
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
}

export class InstructionsBudgetError extends Error {
  constructor(
    readonly length: number,
    readonly budget: number,
  ) {
    super(`Server instructions are ${length} characters, over the budget of ${budget} (mcp.instructions.budget). Shorten them.`);
    this.name = 'InstructionsBudgetError';
  }
}

export function assembleInstructions(source: string | IInstructionsParts, budget: number, excluded: readonly string[] = []): AssembledInstructions {
  if (typeof source === 'string') return check(source, budget, 0);
  const excludedSet = new Set(excluded);
  const entries = (source.index ?? []).filter((e) => !e.tools.some((t) => excludedSet.has(t)));
  const dropped = (source.index?.length ?? 0) - entries.length;
  const build = (exclusion: string | undefined) =>
    [
      source.notice,
      source.opening,
      exclusion,
      entries.length > 0 ? [source.indexTitle ?? 'What to call for what:', ...entries.map((e) => `- ${e.text}`)].join('\n') : undefined,
      source.note,
      source.close,
    ]
      .filter((p): p is string => !!p && p.trim().length > 0)
      .join('\n\n');

  if (excluded.length === 0) return check(build(undefined), budget, dropped);
  const byName = build(`Not available on this server: ${[...excluded].sort().join(', ')}.`);
  if (byName.length <= budget) return check(byName, budget, dropped);
  const n = excluded.length;
  const byCount = build(`${n} tool${n === 1 ? ' is' : 's are'} not available on this server.`);
  if (byCount.length <= budget) return check(byCount, budget, dropped);
  // The exclusion note is a courtesy: text that fits without it is never refused for it.
  return check(build(undefined), budget, dropped);
}

function check(text: string, budget: number, droppedEntries: number): AssembledInstructions {
  if (text.length > budget) throw new InstructionsBudgetError(text.length, budget);
  return { text, length: text.length, budget, droppedEntries };
}
