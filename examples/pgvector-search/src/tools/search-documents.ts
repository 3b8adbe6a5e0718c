/**
 * search_documents: nearest neighbours of a query text (embedded locally) or of
 * the caller's vector, under the distance the caller picks.
 */
import { formatToolResult, ValidationError, type ITool } from 'fa-mcp-sdk';
import { searchNearest, type DistanceOperator } from 'fa-mcp-sdk/db';
import { DIMENSIONS, embed } from '../embedding.js';
import { DOCUMENTS } from '../schema.js';

const DISTANCES: Record<string, DistanceOperator> = { cosine: '<=>', l2: '<->', inner_product: '<#>', l1: '<+>' };

export const searchDocumentsTool: ITool = {
  name: 'search_documents',
  title: 'Search documents',
  description: 'Finds the stored documents closest to a query text or to an embedding; closest first, with their distance.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 2000, description: 'Text to search for (embedded locally).' },
      embedding: { type: 'array', items: { type: 'number' }, minItems: DIMENSIONS, maxItems: DIMENSIONS, description: 'Search by your own vector instead.' },
      distance: { type: 'string', enum: Object.keys(DISTANCES), default: 'cosine', description: 'cosine (indexed), l2, inner_product or l1.' },
      limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      distance: { type: 'string' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'string' }, title: { type: 'string' }, snippet: { type: 'string' }, distance: { type: 'number' } },
          required: ['id', 'title', 'snippet', 'distance'],
          additionalProperties: false,
        },
      },
    },
    required: ['distance', 'results'],
    additionalProperties: false,
  },
  handler: async ({ arguments: args }) => {
    const query = args.query as string | undefined;
    const given = args.embedding as number[] | undefined;
    if (!query && !given) throw new ValidationError('Give a query text or an embedding', { field: 'query', reason: 'required' });
    const distance = (args.distance as string | undefined) ?? 'cosine';
    const rows = await searchNearest<{ id: string; title: string; body: string }>({
      table: DOCUMENTS,
      column: 'embedding',
      vector: given ?? embed(query as string),
      operator: DISTANCES[distance] as DistanceOperator,
      limit: (args.limit as number | undefined) ?? 5,
      select: ['id', 'title', 'body'],
    });
    const results = rows.map((r) => ({ id: r.id, title: r.title, snippet: r.body.slice(0, 160), distance: Number(r.distance) }));
    return formatToolResult({ distance, results });
  },
};
