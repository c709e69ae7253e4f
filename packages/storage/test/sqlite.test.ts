import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, schemaVersion, type Migration, type SqliteDatabase } from '../src';

const dataDir = mkdtempSync(join(tmpdir(), 'storage-sqlite-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

let fileNumber = 0;
const newFile = () => join(dataDir, `nested-${++fileNumber}`, 'deeper', 'test.sqlite');

const opened: SqliteDatabase[] = [];
function open(file: string, migrations: Migration[]): SqliteDatabase {
  const db = openSqlite(file, migrations);
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

const createNotes: Migration = { version: 1, up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)' };
const addAuthor: Migration = { version: 2, up: "ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT ''" };
const tableNames = (db: SqliteDatabase) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(
    (row) => row.name,
  );

describe('openSqlite', () => {
  it('creates the file and its missing folders', () => {
    const file = newFile();
    open(file, []);
    expect(existsSync(file)).toBe(true);
  });

  it('sets WAL journaling, NORMAL sync, foreign keys and a busy timeout', () => {
    const db = open(newFile(), []);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
  });

  it("keeps SQLite's own 2 MiB page cache (not better-sqlite3's 16 MB) unless told another size", () => {
    expect(open(newFile(), []).pragma('cache_size', { simple: true })).toBe(-2048);
    const small = openSqlite(newFile(), [], { cacheKiB: 512 });
    opened.push(small);
    expect(small.pragma('cache_size', { simple: true })).toBe(-512);
  });

  it('opens an in-memory database', () => {
    const db = open(':memory:', [createNotes]);
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('hello');
    expect(db.prepare('SELECT text FROM notes').pluck().get()).toBe('hello');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});

describe('migrations', () => {
  it('applies them in order and records the last version', () => {
    const db = open(':memory:', [createNotes, addAuthor]);
    expect(schemaVersion(db)).toBe(2);
    db.prepare('INSERT INTO notes (text, author) VALUES (?, ?)').run('hi', 'sam');
  });

  it('runs function steps with the database', () => {
    const seed: Migration = {
      version: 2,
      up: (db) => {
        db.prepare('INSERT INTO notes (text) VALUES (?)').run('seeded');
      },
    };
    const db = open(':memory:', [createNotes, seed]);
    expect(db.prepare('SELECT text FROM notes').pluck().all()).toEqual(['seeded']);
  });

  it('applies only the steps newer than the database on reopening', () => {
    const file = newFile();
    open(file, [createNotes]).close();
    let runs = 0;
    const counted: Migration = { version: 1, up: () => void runs++ };
    const reopened = open(file, [counted, addAuthor]);
    expect(runs).toBe(0);
    expect(schemaVersion(reopened)).toBe(2);
    expect(reopened.prepare('SELECT author FROM notes').all()).toEqual([]);
  });

  it('skips a step another process applied while this one waited for the write lock', async () => {
    const file = newFile();
    open(file, []); // the file exists, at version 0
    // Another process (a second replica starting at the same time): takes the write lock,
    // applies step 1, and commits a moment later. A timer, not a signal from here: this
    // process is blocked inside the synchronous open() (busy_timeout) while it waits, which is
    // what the test is about, so the other one must let go by itself.
    const other = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(process.argv[1]);
         db.exec('BEGIN IMMEDIATE');
         db.exec(${JSON.stringify(createNotes.up)});
         db.pragma('user_version = 1');
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);`,
        file,
      ],
      { cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => other.stdout!.once('data', () => resolve()));
    // This one read version 0 before the other committed, then waits for the lock.
    const db = open(file, [createNotes, addAuthor]);
    expect(schemaVersion(db)).toBe(2);
    expect(tableNames(db)).toContain('notes');
    await new Promise((resolve) => other.once('exit', resolve));
  });

  it('rolls a failing step back and keeps the version before it', () => {
    const file = newFile();
    const broken: Migration = {
      version: 2,
      up: "CREATE TABLE half_done (id INTEGER); INSERT INTO missing_table VALUES (1);",
    };
    expect(() => openSqlite(file, [createNotes, broken])).toThrow(/Migration 2 of .* failed: no such table: missing_table/);

    const db = open(file, [createNotes]);
    expect(schemaVersion(db)).toBe(1);
    expect(tableNames(db)).toEqual(['notes']);
  });

  it('refuses a database newer than the code, naming both versions', () => {
    const file = newFile();
    open(file, [createNotes, addAuthor]).close();
    expect(() => openSqlite(file, [createNotes])).toThrow(
      /is at schema version 2, newer than this code knows \(1\)/,
    );
  });

  it('refuses versions out of order or repeated', () => {
    expect(() => openSqlite(':memory:', [addAuthor, createNotes])).toThrow(/ascending order/);
    expect(() => openSqlite(':memory:', [createNotes, createNotes])).toThrow(/ascending order/);
    expect(() => openSqlite(':memory:', [{ version: 0, up: '' }])).toThrow(/positive integers/);
  });
});
