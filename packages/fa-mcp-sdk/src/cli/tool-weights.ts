/**
 * Wire weight of a tools/list: bytes are the UTF-8 length of each entry's JSON as the server sends
 * it; tokens are estimated as characters / charsPerToken (4 by default: a common rule of thumb for
 * English text and JSON with GPT-style tokenizers; real counts vary by model, so keep a margin).
 */
export interface ToolWeight {
  name: string;
  bytes: number;
  tokens: number;
  /** Share of the whole list, in percent. */
  share: number;
}

export interface Budgets {
  totalTokens?: number;
  toolTokens?: number;
  instructionsChars?: number;
}

export interface Measurement {
  charsPerToken: number;
  tools: ToolWeight[];
  total: { tools: number; bytes: number; tokens: number };
  instructions: { chars: number; bytes: number; tokens: number; budgetChars?: number };
  budgets: Budgets;
  /** One line per exceeded budget; empty when everything fits. */
  overBudget: string[];
}

const estimate = (text: string, charsPerToken: number) => Math.ceil(text.length / charsPerToken);

export function measureTools(tools: readonly object[], instructions: string | undefined, charsPerToken: number, budgets: Budgets = {}): Measurement {
  const listJson = JSON.stringify({ tools });
  const totalBytes = Buffer.byteLength(listJson, 'utf8');
  const weights = tools
    .map((tool) => {
      const json = JSON.stringify(tool);
      const bytes = Buffer.byteLength(json, 'utf8');
      return { name: String((tool as { name?: unknown }).name), bytes, tokens: estimate(json, charsPerToken), share: 0 };
    })
    .map((w) => ({ ...w, share: totalBytes ? Number(((100 * w.bytes) / totalBytes).toFixed(1)) : 0 }))
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name, 'en'));
  const text = instructions ?? '';
  const m: Measurement = {
    charsPerToken,
    tools: weights,
    total: { tools: tools.length, bytes: totalBytes, tokens: estimate(listJson, charsPerToken) },
    instructions: {
      chars: text.length,
      bytes: Buffer.byteLength(text, 'utf8'),
      tokens: estimate(text, charsPerToken),
      ...(budgets.instructionsChars !== undefined ? { budgetChars: budgets.instructionsChars } : {}),
    },
    budgets,
    overBudget: [],
  };
  if (budgets.totalTokens !== undefined && m.total.tokens > budgets.totalTokens) {
    m.overBudget.push(`tools/list: ~${m.total.tokens} tokens > budget ${budgets.totalTokens}`);
  }
  if (budgets.toolTokens !== undefined) {
    for (const w of weights) if (w.tokens > budgets.toolTokens) m.overBudget.push(`tool ${w.name}: ~${w.tokens} tokens > budget ${budgets.toolTokens}`);
  }
  if (budgets.instructionsChars !== undefined && text.length > budgets.instructionsChars) {
    m.overBudget.push(`instructions: ${text.length} characters > budget ${budgets.instructionsChars}`);
  }
  return m;
}

export function renderMeasurement(m: Measurement): string {
  const nameWidth = Math.max(5, ...m.tools.map((w) => w.name.length));
  const row = (name: string, bytes: string, tokens: string, share: string) =>
    `${name.padEnd(nameWidth)}  ${bytes.padStart(8)}  ${tokens.padStart(8)}  ${share.padStart(6)}`;
  const lines = [row('tool', 'bytes', '~tokens', 'share'), row('-'.repeat(nameWidth), '-----', '-------', '-----')];
  for (const w of m.tools) lines.push(row(w.name, String(w.bytes), String(w.tokens), `${w.share}%`));
  lines.push(row('total', String(m.total.bytes), String(m.total.tokens), '100%'));
  const budget = m.budgets.totalTokens !== undefined ? ` of a ${m.budgets.totalTokens}-token budget` : '';
  lines.push('', `tools/list: ${m.total.tools} tools, ${m.total.bytes} bytes, ~${m.total.tokens} tokens${budget}`);
  const ib = m.instructions.budgetChars !== undefined ? ` of ${m.instructions.budgetChars} allowed (mcp.instructions.budget)` : '';
  lines.push(`instructions: ${m.instructions.chars} characters${ib}, ${m.instructions.bytes} bytes, ~${m.instructions.tokens} tokens`);
  lines.push(`tokens are estimated as characters / ${m.charsPerToken}`);
  return `${lines.join('\n')}\n`;
}
