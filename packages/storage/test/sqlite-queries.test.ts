import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, SqliteQueries, type SqliteDatabase } from '../src';

const dataDir = mkdtempSync(join(tmpdir(), 'storage-sqlite-queries-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

const opened: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

let fileNumber = 0;
/** A database file and a second connection to it, as another process would have. */
function openTwice(): { sql: SqliteQueries; other: SqliteDatabase } {
  const file = join(dataDir, `queries-${++fileNumber}.sqlite`);
  const migrations = [{ version: 1, up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)' }];
  const db = openSqlite(file, migrations);
  const other = openSqlite(file, migrations);
  opened.push(db, other);
  return { sql: new SqliteQueries(db), other };
}

const texts = (db: SqliteDatabase) => (db.prepare('SELECT text FROM notes ORDER BY id').pluck().all() as string[]);
const add = (sql: SqliteQueries, text: string) => () => {
  sql.run('INSERT INTO notes (text) VALUES (?)', text);
  return text;
};

describe('SqliteQueries.writeGrouped', () => {
  it('commits the changes of one turn in one transaction, each seeing the ones before it', async () => {
    const { sql, other } = openTwice();
    const seen: Array<{ inTransaction: boolean; own: string[]; committed: string[] }> = [];
    const look = (text: string) => () => {
      add(sql, text)();
      seen.push({ inTransaction: sql.db.inTransaction, own: texts(sql.db), committed: texts(other) });
      return text;
    };
    const results = await Promise.all([sql.writeGrouped(look('a')), sql.writeGrouped(look('b')), sql.writeGrouped(look('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    // While the third ran, the first two were written but not yet committed: one transaction.
    expect(seen[2]).toEqual({ inTransaction: true, own: ['a', 'b', 'c'], committed: [] });
    expect(texts(other)).toEqual(['a', 'b', 'c']);
  });

  it('resolves only once the group has committed: another connection sees the write', async () => {
    const { sql, other } = openTwice();
    const visible = await sql.writeGrouped(add(sql, 'kept')).then(() => texts(other));
    expect(visible).toEqual(['kept']);
  });

  it('undoes and rejects only the change that throws; the others of its group are kept', async () => {
    const { sql, other } = openTwice();
    const failing = () => {
      sql.run('INSERT INTO notes (text) VALUES (?)', 'half-written');
      throw new Error('refused');
    };
    const outcomes = await Promise.allSettled([
      sql.writeGrouped(add(sql, 'first')),
      sql.writeGrouped(failing),
      sql.writeGrouped(add(sql, 'first')), // the UNIQUE constraint refuses it
      sql.writeGrouped(add(sql, 'last')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(texts(other)).toEqual(['first', 'last']);
  });

  it('rejects every change of the group, keeping none, when the transaction cannot begin', async () => {
    const { sql, other } = openTwice();
    other.exec('PRAGMA busy_timeout = 0');
    sql.db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock
    const outcomes = await Promise.allSettled([sql.writeGrouped(add(sql, 'a')), sql.writeGrouped(add(sql, 'b'))]);
    other.exec('ROLLBACK');
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/database is locked/);
    expect(texts(other)).toEqual([]);
    // And the next group goes through.
    await expect(sql.writeGrouped(add(sql, 'later'))).resolves.toBe('later');
    expect(texts(other)).toEqual(['later']);
  });

  it('starts a new group for changes asked for after the last one committed', async () => {
    const { sql } = openTwice();
    await sql.writeGrouped(add(sql, 'one'));
    let insideSecond = false;
    await sql.writeGrouped(() => {
      insideSecond = sql.db.inTransaction;
      return add(sql, 'two')();
    });
    expect(insideSecond).toBe(true);
    expect(texts(sql.db)).toEqual(['one', 'two']);
  });
});

describe('SqliteQueries.afterCommit', () => {
  it('runs what a grouped change gave it once the group has committed, never for a change undone', async () => {
    const { sql, other } = openTwice();
    const ran: Array<{ text: string; committed: string[] }> = [];
    const noted = (text: string, fail = false) => () => {
      add(sql, text)();
      sql.afterCommit(() => ran.push({ text, committed: texts(other) }));
      if (fail) throw new Error(`no ${text}`);
      return text;
    };
    const outcomes = await Promise.allSettled([sql.writeGrouped(noted('a')), sql.writeGrouped(noted('b', true)), sql.writeGrouped(noted('c'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // Run after the commit: another connection sees both kept writes already.
    expect(ran).toEqual([
      { text: 'a', committed: ['a', 'c'] },
      { text: 'c', committed: ['a', 'c'] },
    ]);
  });

  it('runs after the outermost write of nested writes commits, and not when it rolls back', () => {
    const { sql, other } = openTwice();
    const ran: string[] = [];
    sql.write(() => {
      sql.write(() => {
        add(sql, 'inner')();
        sql.afterCommit(() => ran.push(`inner, committed: ${texts(other).join(' ')}`));
      });
      expect(ran).toEqual([]);
      add(sql, 'outer')();
    });
    expect(ran).toEqual(['inner, committed: inner outer']);
    expect(() =>
      sql.write(() => {
        add(sql, 'undone')();
        sql.afterCommit(() => ran.push('undone'));
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(ran).toEqual(['inner, committed: inner outer']);
    expect(texts(other)).toEqual(['inner', 'outer']);
  });

  it('runs at once outside any write', () => {
    const { sql } = openTwice();
    const ran: string[] = [];
    sql.afterCommit(() => ran.push('now'));
    expect(ran).toEqual(['now']);
  });
});
