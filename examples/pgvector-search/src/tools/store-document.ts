/**
 * store_document: upserts a document with its embedding. The embedding is the
 * caller's (any model, DIMENSIONS numbers) or computed locally from title + text.
 */
import { randomUUID } from 'node:crypto';
import { formatToolResult, type ITool } from 'fa-mcp-sdk';
import { execMAIN, getMergeSqlMAIN, toVectorSql } from 'fa-mcp-sdk/db';
import { DIMENSIONS, embed } from '../embedding.js';
import { DOCUMENTS } from '../schema.js';

export const storeDocumentTool: ITool = {
  name: 'store_document',
  title: 'Store a document',
  description: `Stores (or replaces, by id) a document and its ${DIMENSIONS}-dimension embedding for search_documents.`,
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 128, description: 'Stable id; a new one is made when absent.' },
      title: { type: 'string', minLength: 1, maxLength: 200 },
      text: { type: 'string', minLength: 1, maxLength: 20_000 },
      tags: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20 },
      embedding: {
        type: 'array',
        items: { type: 'number' },
        minItems: DIMENSIONS,
        maxItems: DIMENSIONS,
        description: `Your own embedding (${DIMENSIONS} numbers); computed locally when absent.`,
      },
    },
    required: ['title', 'text'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      embedding: { type: 'string', enum: ['caller', 'local'] },
      dimensions: { type: 'integer' },
    },
    required: ['id', 'embedding', 'dimensions'],
    additionalProperties: false,
  },
  handler: async ({ arguments: args }) => {
    // The input schema has been checked: the casts only restate it for TypeScript.
    const id = (args.id as string | undefined) ?? randomUUID();
    const title = args.title as string;
    const text = args.text as string;
    const given = args.embedding as number[] | undefined;
    const vector = given ?? embed(`${title}\n${text}`);
    const upsert = await getMergeSqlMAIN({
      commonSchemaAndTable: DOCUMENTS,
      recordset: [{ id, title, body: text, tags: (args.tags as string[] | undefined) ?? [], embedding: toVectorSql(vector), stored_at: new Date() }],
      conflictFields: ['id'],
    });
    await execMAIN(upsert);
    return formatToolResult({ id, embedding: given ? 'caller' : 'local', dimensions: vector.length });
  },
};
