import BetterSqlite3 from 'better-sqlite3';
import { connectSqlite, sqliteBinding, sqliteBindings } from '../src/sqlite-binding';
import { sqliteCodeName } from '../src/sqlite-error-codes';
import { openSqlite, type SqliteDatabase } from '../src/sqlite';

const thrownBy = (work: () => unknown): { code?: unknown; message?: unknown } => {
  try {
    work();
  } catch (error) {
    return error as { code?: unknown; message?: unknown };
  }
  throw new Error('nothing was thrown');
};

describe('SQLITE_BINDING', () => {
  it('is better-sqlite3 unless node:sqlite is named, and refuses any other', () => {
    expect(sqliteBinding({})).toBe('better-sqlite3');
    expect(sqliteBinding({ SQLITE_BINDING: '' })).toBe('better-sqlite3');
    expect(sqliteBinding({ SQLITE_BINDING: 'node:sqlite' })).toBe('node:sqlite');
    expect(() => sqliteBinding({ SQLITE_BINDING: 'sqlite3' })).toThrow(/^Invalid setting SQLITE_BINDING: must be one of better-sqlite3, node:sqlite; got "sqlite3"$/);
  });

  it('chooses what openSqlite opens', () => {
    const previous = process.env.SQLITE_BINDING;
    try {
      process.env.SQLITE_BINDING = 'node:sqlite';
      const ofNode = openSqlite(':memory:', []);
      process.env.SQLITE_BINDING = 'better-sqlite3';
      const ofAddon = openSqlite(':memory:', []);
      expect([ofNode instanceof BetterSqlite3, ofAddon instanceof BetterSqlite3]).toEqual([false, true]);
      ofNode.close();
      ofAddon.close();
    } finally {
      if (previous === undefined) delete process.env.SQLITE_BINDING;
      else process.env.SQLITE_BINDING = previous;
    }
  });
});

it("names SQLite's result codes as better-sqlite3 does", () => {
  expect([2067, 1555, 787, 1299, 19, 5, 261, 1034, 1, 13].map(sqliteCodeName)).toEqual([
    'SQLITE_CONSTRAINT_UNIQUE',
    'SQLITE_CONSTRAINT_PRIMARYKEY',
    'SQLITE_CONSTRAINT_FOREIGNKEY',
    'SQLITE_CONSTRAINT_NOTNULL',
    'SQLITE_CONSTRAINT',
    'SQLITE_BUSY',
    'SQLITE_BUSY_RECOVERY',
    'SQLITE_IOERR_FSYNC',
    'SQLITE_ERROR',
    'SQLITE_FULL',
  ]);
});

/** What Formcast's stores rely on, the same through either binding. */
describe.each(sqliteBindings)('the API the stores use, through %s', (binding) => {
  let db: SqliteDatabase;
  beforeEach(() => {
    db = connectSqlite(':memory:', binding);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE, data BLOB) STRICT');
  });
  afterEach(() => db.close());
  const texts = () => db.prepare('SELECT text FROM notes ORDER BY id').pluck().all();

  it('runs statements, answering changes and the last rowid, with rows as objects, BLOBs as Buffers', () => {
    const insert = db.prepare('INSERT INTO notes (text, data) VALUES (?, ?)');
    expect(insert.run('a', Buffer.from('xy'))).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(insert.run(['b', null])).toEqual({ changes: 1, lastInsertRowid: 2 });
    const row = db.prepare('SELECT * FROM notes WHERE id = @id').get({ id: 1, unused: true }) as { data: Buffer };
    expect(row).toEqual({ id: 1, text: 'a', data: Buffer.from('xy') });
    expect(Buffer.isBuffer(row.data)).toBe(true);
    expect(db.prepare('SELECT * FROM notes WHERE id = ?').get(3)).toBeUndefined();
    expect([...db.prepare('SELECT id FROM notes ORDER BY id').iterate()]).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('plucks and gives raw rows until told not to', () => {
    db.prepare('INSERT INTO notes (text) VALUES (?), (?)').run('a', 'b');
    const statement = db.prepare('SELECT id, text FROM notes ORDER BY id');
    expect(statement.pluck().all()).toEqual([1, 2]);
    expect(statement.raw().all()).toEqual([[1, 'a'], [2, 'b']]);
    expect(statement.raw(false).get()).toEqual({ id: 1, text: 'a' });
    expect(statement.columns().map((column) => column.name)).toEqual(['id', 'text']);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.pragma('table_info(notes)')).toHaveLength(3);
  });

  it("names a violated constraint by better-sqlite3's code", () => {
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('a');
    const error = thrownBy(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('a'));
    expect([error.code, error.message]).toEqual(['SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: notes.text']);
    expect(thrownBy(() => db.exec('INSERT INTO notes (text) VALUES (NULL)')).code).toBe('SQLITE_CONSTRAINT_NOTNULL');
  });

  it('runs a transaction all or nothing, and a nested one as a savepoint', () => {
    const add = db.transaction((text: string) => db.prepare('INSERT INTO notes (text) VALUES (?)').run(text).changes);
    const both = db.transaction((first: string, second: string) => {
      add(first);
      expect(db.inTransaction).toBe(true);
      try {
        add.immediate(second); // nested: a savepoint, whatever the variant
      } catch {
        // only the nested one is undone
      }
    });
    both.immediate('a', 'a');
    expect(texts()).toEqual(['a']);
    both.deferred('b', 'c');
    expect(() => add('b')).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }));
    expect(texts()).toEqual(['a', 'b', 'c']);
    expect(() => db.transaction(() => { add('d'); throw new Error('no'); })()).toThrow('no');
    expect(() => db.transaction(() => Promise.resolve())()).toThrow('Transaction function cannot return a promise');
    expect([texts(), db.inTransaction, db.open]).toEqual([['a', 'b', 'c'], false, true]);
  });
});
