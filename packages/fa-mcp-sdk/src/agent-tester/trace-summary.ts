/** A readable summary of an Agent Tester trace (what `fa-mcp agent-test --pretty` prints). */
import type { AgentTrace } from './trace-types.js';

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function resultText(result: Record<string, unknown> | undefined): string {
  const content = Array.isArray(result?.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  const text = content.map((c) => (c.type === 'text' ? c.text ?? '' : `[${String(c.type)}]`)).join(' ');
  return text || (result?.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '');
}

export function summarizeTrace(trace: AgentTrace): string {
  const u = trace.usage;
  const lines = [
    `prompt: ${oneLine(trace.prompt, 200)}`,
    `model: ${trace.model || '(unnamed)'} | stop: ${trace.stopReason} | ${trace.modelCalls.length} model requests | ${u.totalTokens} tokens (${u.promptTokens} in, ${u.completionTokens} out${u.unreported ? `, ${u.unreported} answers without usage` : ''}) | ${trace.durationMs} ms`,
    `server: ${trace.server.name ?? '?'} ${trace.server.version ?? ''} | ${trace.server.tools.length} tools offered`.trimEnd(),
  ];
  if (trace.toolCalls.length) {
    lines.push('tool calls:');
    trace.toolCalls.forEach((c, i) => {
      const outcome = c.error ? `failed: ${oneLine(c.error, 160)}` : `${c.isError ? 'error' : 'ok'}: ${oneLine(resultText(c.result), 160)}`;
      lines.push(`  ${i + 1}. [turn ${c.turn}] ${c.name} ${oneLine(JSON.stringify(c.arguments) ?? '', 120)} -> ${outcome} (${c.durationMs} ms)`);
    });
  } else lines.push('tool calls: none');
  for (const a of trace.appCalls) lines.push(`app call: ${a.toolName} -> ${a.resourceUri}${a.view ? ` (view ${a.view.html.length} chars)` : ` (no view: ${a.viewError ?? '?'})`}`);
  if (trace.finalAnswer !== null) lines.push('answer:', ...trace.finalAnswer.split('\n').map((l) => `  ${l}`));
  if (trace.error) lines.push(`error: ${trace.error.message}`);
  return lines.join('\n');
}
