import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/**
 * A4's and A6's database: a SQLite file of its own in a fresh folder, opened as Formcast
 * opens its files (WAL, synchronous = NORMAL), with `schema` applied. SQLite's own
 * checkpoints (every 1,000 pages, in the committing connection) stay on: the anchor does
 * the irreducible work, not Formcast's way of moving it off the event loop. The folder goes
 * with the process.
 */
export function openAnchorDatabase(label: string, schema: string): BetterSqlite3.Database {
  const folder = mkdtempSync(join(tmpdir(), `formcast-bench-${label}-`));
  const db = new BetterSqlite3(join(folder, `${label}.sqlite`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(schema);
  process.once('exit', () => {
    if (db.open) db.close();
    rmSync(folder, { recursive: true, force: true });
  });
  return db;
}
