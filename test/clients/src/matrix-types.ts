/** The cells of the client matrix and the features each row is checked for. */
export const FEATURES = [
  'connect',
  'list tools',
  'list prompts',
  'list resources',
  'list templates',
  'call tool',
  'bad argument',
  'tool error with outputSchema',
  'get prompt',
  'read resource',
  'complete',
  'progress',
  'cancellation',
  'elicitation',
  'task',
] as const;
export type Feature = (typeof FEATURES)[number];

export type Cell = { state: 'works'; note?: string } | { state: 'not supported'; why: string } | { state: 'fails'; why: string };

export interface MatrixRow {
  client: string;
  version: string;
  transport: 'Streamable HTTP' | 'legacy SSE' | 'stdio';
  revision: '2025-11-25' | '2026-07-28';
  cells: Partial<Record<Feature, Cell>>;
}
