import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@formcast/testing';
import { openSqlite, type SqliteDatabase } from '../src';
import { closeSqlite, SqliteCheckpointer, sqliteCheckpointer } from '../src/sqlite-checkpointer';

const dataDir = mkdtempSync(join(tmpdir(), 'storage-checkpointer-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

let fileNumber = 0;
const newFile = () => join(dataDir, `db-${++fileNumber}.sqlite`);
const migrations = [{ version: 1, up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)' }];

const opened: SqliteDatabase[] = [];

/** A new file, opened, whose checkpoints a checkpointer's worker has taken over at once. */
function withWorkerRunning() {
  const checkpointer = new SqliteCheckpointer();
  const file = newFile();
  const db = openSqlite(file, migrations);
  opened.push(db);
  checkpointer.add(file, db);
  checkpointer.takeOverNow();
  return { checkpointer, file, db };
}

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function open(file: string): SqliteDatabase {
  const db = openSqlite(file, migrations);
  opened.push(db);
  return db;
}

/** Opened, with the process's worker checkpointing it (as once the process writes steadily). */
function openTakenOver(file: string): SqliteDatabase {
  const db = open(file);
  sqliteCheckpointer.takeOverNow();
  return db;
}

const writeNotes = (db: SqliteDatabase, count: number) =>
  db.transaction(() => {
    for (let i = 0; i < count; i++) db.prepare('INSERT INTO notes (text) VALUES (?)').run('x'.repeat(1000));
  })();

describe('background checkpoints', () => {
  it('moves what a connection wrote from the WAL into the database file, the connection checkpointing nothing itself', async () => {
    const file = newFile();
    const db = openTakenOver(file);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = statSync(file).size;
    writeNotes(db, 500); // about 500 KB, all in the WAL until a checkpoint
    await waitFor(() => statSync(file).size > before + 400_000, { timeoutMs: 5000, description: 'the database file to take the WAL' });
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(500);
  });

  it('checkpoints a file written again after a quiet spell (the worker sleeps while nothing is written, and a write wakes it)', async () => {
    const file = newFile();
    const db = openTakenOver(file);
    writeNotes(db, 100);
    await waitFor(() => statSync(file).size > 80_000, { timeoutMs: 5000, description: 'the first checkpoint' });
    // Quiet long enough for the worker to be asleep.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = statSync(file).size;
    writeNotes(db, 300);
    await waitFor(() => statSync(file).size > before + 250_000, { timeoutMs: 5000, description: 'a checkpoint after the quiet spell' });
  });

  it('does not look on a timer while nothing is written: the worker sleeps until a -wal is written (issue 24)', async () => {
    const { checkpointer, file, db } = withWorkerRunning();
    try {
      writeNotes(db, 100);
      await waitFor(() => statSync(file).size > 80_000, { timeoutMs: 5000, description: 'the first checkpoint' });
      await waitFor(() => checkpointer.sleeping, { timeoutMs: 2000, description: 'the worker to sleep, nothing written' });
      await new Promise((resolve) => setTimeout(resolve, 1000)); // five looks' time at the writing pace
      expect(checkpointer.sleeping).toBe(true);
      const before = statSync(file).size;
      writeNotes(db, 300);
      await waitFor(() => statSync(file).size > before + 250_000, { timeoutMs: 5000, description: 'a checkpoint once the write woke the worker' });
    } finally {
      checkpointer.release(file, db);
    }
  });

  it('keeps a file while any connection to it is open, and lets it go with the last', () => {
    const file = newFile();
    const first = open(file);
    const second = open(file);
    expect(sqliteCheckpointer.files).toContain(file);
    first.close();
    expect(sqliteCheckpointer.files).toContain(file);
    second.close();
    expect(sqliteCheckpointer.files).not.toContain(file);
  });

  it('closes the file everywhere before closeSqlite resolves: the last connection takes the -wal and -shm with it', async () => {
    const folder = mkdtempSync(join(dataDir, 'closed-'));
    const file = join(folder, 'closing.sqlite');
    const db = openTakenOver(file);
    writeNotes(db, 20);
    await waitFor(() => statSync(file).size > 20_000, { timeoutMs: 5000, description: 'a background checkpoint' });
    expect(existsSync(`${file}-wal`)).toBe(true);
    await closeSqlite(db);
    expect(readdirSync(folder)).toEqual(['closing.sqlite']);
    rmSync(folder, { recursive: true });
    // Nothing comes back once the folder is gone (a worker still checkpointing would recreate the companions).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(folder)).toBe(false);
  });

  it('loses nothing written: a reopened file holds every row', () => {
    const file = newFile();
    const db = open(file);
    writeNotes(db, 50);
    db.close();
    expect(open(file).prepare('SELECT count(*) FROM notes').pluck().get()).toBe(50);
  });

  it('leaves in-memory databases to SQLite', () => {
    const db = openSqlite(':memory:', migrations);
    opened.push(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it("gives the connections back their own checkpoints when the worker is gone", async () => {
    const { checkpointer, file, db } = withWorkerRunning();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await waitFor(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1000, { description: 'SQLite checkpoints back' });
    expect(checkpointer.files).toEqual([]);
  });
});

describe('the worker, started once the process writes steadily', () => {
  const added: Array<{ checkpointer: SqliteCheckpointer; file: string; db: SqliteDatabase }> = [];
  afterEach(() => {
    for (const { checkpointer, file, db } of added.splice(0)) checkpointer.release(file, db);
  });

  function watched(file: string, retireAfterMs = 60_000): { db: SqliteDatabase; checkpointer: SqliteCheckpointer } {
    const checkpointer = new SqliteCheckpointer({ watchIntervalMs: 50, busyAfterLooks: 3, retireAfterMs });
    const db = openSqlite(file, migrations);
    opened.push(db);
    checkpointer.add(file, db);
    added.push({ checkpointer, file, db });
    return { db, checkpointer };
  }

  it('is not started for files written now and then: their connections checkpoint themselves, as SQLite does', async () => {
    const { db, checkpointer } = watched(newFile());
    for (let i = 0; i < 4; i++) {
      writeNotes(db, 1);
      await new Promise((resolve) => setTimeout(resolve, 250)); // five looks between writes
    }
    expect(checkpointer.running).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(4);
  });

  it('looks at no file on a timer while nothing is written, and the next write wakes the looking (issue 24)', async () => {
    const { db, checkpointer } = watched(newFile());
    await waitFor(() => !checkpointer.looking, { timeoutMs: 2000, description: 'the looking to sleep, nothing written' });
    await new Promise((resolve) => setTimeout(resolve, 200)); // four looks' time: still asleep
    expect(checkpointer.looking).toBe(false);
    writeNotes(db, 1);
    await waitFor(() => checkpointer.looking, { timeoutMs: 2000, description: 'a write to wake the looking' });
    await waitFor(() => !checkpointer.looking, { timeoutMs: 2000, description: 'asleep again once the writes stop' });
    expect(checkpointer.running).toBe(false);
  });

  it('starts when a file is written look after look, and takes every file open', async () => {
    const file = newFile();
    const { db, checkpointer } = watched(file);
    const quietFile = newFile();
    const quiet = openSqlite(quietFile, migrations);
    opened.push(quiet);
    checkpointer.add(quietFile, quiet);
    added.push({ checkpointer, file: quietFile, db: quiet });
    const writing = setInterval(() => writeNotes(db, 5), 20);
    try {
      await waitFor(() => checkpointer.running, { timeoutMs: 5000, description: 'the worker to start' });
    } finally {
      clearInterval(writing);
    }
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect(quiet.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = statSync(file).size;
    writeNotes(db, 300);
    await waitFor(() => statSync(file).size > before + 250_000, { timeoutMs: 5000, description: 'the worker to checkpoint' });
  });

  it('stops once nothing is written for a while, the connections checkpointing themselves again, and starts again with the writes', async () => {
    const { db, checkpointer } = watched(newFile(), 500);
    const writeUntil = async (done: () => boolean, description: string) => {
      const writing = setInterval(() => writeNotes(db, 5), 20);
      try {
        await waitFor(done, { timeoutMs: 5000, description });
      } finally {
        clearInterval(writing);
      }
    };
    await writeUntil(() => checkpointer.running, 'the worker to start');
    await waitFor(() => !checkpointer.running, { timeoutMs: 5000, description: 'the worker to stop, nothing written' });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await writeUntil(() => checkpointer.running, 'the worker to start again');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  });

  it('resolves closed() for a file closed as the worker retires only once that worker has exited', async () => {
    const file = newFile();
    const { db, checkpointer } = watched(file, 300);
    const writing = setInterval(() => writeNotes(db, 5), 20);
    try {
      await waitFor(() => checkpointer.running, { timeoutMs: 5000, description: 'the worker to start' });
    } finally {
      clearInterval(writing);
    }
    const worker = (checkpointer as unknown as { worker: import('node:worker_threads').Worker }).worker;
    let exited = false;
    worker.once('exit', () => (exited = true));
    const closedAsItRetires = new Promise<boolean>((resolve) => {
      // Registered after the checkpointer's own listener: runs right after it stopped the worker, in the same turn.
      worker.on('message', (message: { quiet?: true }) => {
        if (!message.quiet) return;
        added.splice(0);
        db.close();
        checkpointer.release(file, db);
        void checkpointer.closed(db).then(() => resolve(exited));
      });
    });
    expect(await closedAsItRetires).toBe(true);
  });
});
