// What one bench request is, per MCP method: its params, the value of the Mcp-Name header on
// 2026-07-28, and the text a correct answer contains (every answer is checked).
import { GREET_PROMPT, README_URI } from '../servers/control.mjs';

export const ECHO_TEXT = 'hello, benchmark';

export const WORKLOADS = {
  'tools/call': { params: { name: 'echo', arguments: { text: ECHO_TEXT } }, name: 'echo', expect: '"echoed"' },
  'prompts/get': { params: { name: GREET_PROMPT, arguments: { name: 'benchmark' } }, name: GREET_PROMPT, expect: 'Hello, benchmark!' },
  'resources/read': { params: { uri: README_URI }, name: README_URI, expect: 'The bench readme' },
  'completion/complete': {
    params: { ref: { type: 'ref/prompt', name: GREET_PROMPT }, argument: { name: 'name', value: 'be' } },
    expect: '"beacon"',
  },
};

export function workload(method = 'tools/call') {
  const w = WORKLOADS[method];
  if (!w) throw new Error(`the bench has no workload for ${method}`);
  return { method, ...w };
}
