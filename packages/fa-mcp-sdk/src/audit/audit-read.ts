/**
 * Reading stored records back, for `fa-mcp audit verify` and `query`: the lines of JSON Lines
 * files (in the order given, oldest first), or the rows of the PostgreSQL table in the order they
 * were inserted (retention checkpoints first: each stands at the start of its chain), a page at a time.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { PgPool } from '../db/pg-types.js';
import { ROW_COLUMNS, type AuditRow } from './audit-migrations.js';
import type { StoredRecord } from './stored-record.js';

const PAGE = 2000;

/**
 * The audit records of JSON Lines files. A line without the `"chain":` and `"hash":` of every record
 * is another program's (a stdio server's log lines share stderr with its records) and is skipped,
 * counted in `skipped`: a record made unrecognisable that way still leaves a hole in its chain.
 */
export async function* readJsonlRecords(files: readonly string[], skipped: { lines: number } = { lines: 0 }): AsyncGenerator<StoredRecord> {
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n += 1;
      if (line.trim() === '') continue;
      if (!line.includes('"chain":') || !line.includes('"hash":')) {
        skipped.lines += 1;
        continue;
      }
      yield { ref: `${basename(file)}:${n}`, text: line };
    }
  }
}

function stored(row: AuditRow): StoredRecord {
  const { id, body, ...columns } = row;
  return { ref: `id ${id}`, text: body, columns };
}

export async function* readPostgresRecords(pool: PgPool): AsyncGenerator<StoredRecord> {
  const checkpoints = await pool.query<AuditRow>(`SELECT ${ROW_COLUMNS} FROM fa_mcp_audit WHERE kind = 'checkpoint' ORDER BY id`);
  for (const row of checkpoints.rows) yield stored(row);
  let after = '0';
  for (;;) {
    const page = await pool.query<AuditRow>(`SELECT ${ROW_COLUMNS} FROM fa_mcp_audit WHERE id > $1 AND kind <> 'checkpoint' ORDER BY id LIMIT ${PAGE}`, [after]);
    for (const row of page.rows) yield stored(row);
    if (page.rows.length < PAGE) return;
    after = (page.rows[page.rows.length - 1] as AuditRow).id;
  }
}
