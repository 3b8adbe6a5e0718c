/** The documents table, its vector column and the index of the searches (idempotent). */
import type { Database } from 'fa-mcp-sdk/db';
import { DIMENSIONS } from './embedding.js';

export const DOCUMENTS = 'documents';

export async function ensureSchema(db: Database): Promise<void> {
  await db.exec(
    `CREATE TABLE IF NOT EXISTS ${DOCUMENTS} (
       id text PRIMARY KEY,
       title text NOT NULL,
       body text NOT NULL,
       tags text[] NOT NULL DEFAULT '{}',
       stored_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  await db.addVectorColumn({ table: DOCUMENTS, column: 'embedding', dimensions: DIMENSIONS });
  await db.createVectorIndex({ table: DOCUMENTS, column: 'embedding', method: 'hnsw', operator: '<=>' });
}
