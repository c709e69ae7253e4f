import { statSync, watch as watchDirectory, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sqliteBinding } from './sqlite-binding';
import type { SqliteDatabase } from './sqlite-types';

/** How often the checkpointer looks at the files while they are being written. */
const intervalMs = 200;
/** How seldom, at most, once nothing is written and the files' folders cannot be watched: the interval doubles up to this. */
const idleIntervalMs = 1600;
/** SQLite's own: a checkpoint by the committing connection once the WAL holds this many pages. */
const sqliteDefaultAutocheckpoint = 1000;

/*
 * Plain JavaScript, evaluated in the worker: it runs the same way from dist/ and under jest
 * (which could not load a TypeScript worker file). Each file gets a connection of its own;
 * PASSIVE waits for nobody, so it never holds up the writers. A file is checkpointed only
 * when its PRAGMA data_version moved (another connection committed since the last look).
 * A look that finds nothing written puts the worker to sleep: the files' folders are
 * watched (inotify) and the next write to a -wal wakes it, so between bursts of writes the
 * worker is not woken at all, only once to retire (issue 24). A folder that cannot be
 * watched is looked at less and less often instead.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { watch } = require('node:fs');
const { dirname, join } = require('node:path');
// The process's binding (SQLITE_BINDING); a file that does not exist (any more) is not created.
const openDatabase = workerData.binding === 'node:sqlite'
  ? (file) => {
      const uri = require('node:url').pathToFileURL(file);
      uri.search = 'mode=rw';
      return new (require('node:sqlite').DatabaseSync)(uri, { timeout: 5000 });
    }
  : (file) => new (require(workerData.sqliteModule))(file, { fileMustExist: true });
const open = new Map();
// A file deleted or closed meanwhile (tests remove theirs at once) is not the worker's concern.
const quietly = (work) => { try { return work(); } catch { return undefined; } };
const connect = (file) => {
  const db = openDatabase(file);
  const dataVersion = db.prepare('PRAGMA data_version');
  return { db, version: { get: () => dataVersion.get().data_version }, checkpoint: db.prepare('PRAGMA wal_checkpoint(PASSIVE)'), seen: null };
};
/** Checkpoints the files written since the last look; whether there was one. */
const checkpointWritten = (all) => {
  let written = false;
  for (const file of open.values()) {
    const version = quietly(() => file.version.get());
    if (version === undefined || (version === file.seen && !all)) continue;
    file.seen = version;
    written = true;
    quietly(() => file.checkpoint.run());
  }
  return written;
};
let interval = workerData.intervalMs;
let timer = null;
const lookIn = (ms) => { clearTimeout(timer); timer = setTimeout(look, ms); };
// Nothing written for retireAfterMs: the process is told, and hands the checkpoints back to SQLite.
let lastWritten = Date.now();
let toldQuiet = false;
const tellIfQuiet = () => {
  if (toldQuiet || Date.now() - lastWritten < workerData.retireAfterMs) return;
  toldQuiet = true;
  parentPort.postMessage({ quiet: true });
};
// The one wake-up left while nothing is written: the retirement (again should the clock be a hair short).
const retireLater = () => {
  if (toldQuiet) return;
  timer = setTimeout(() => { tellIfQuiet(); retireLater(); }, Math.max(1, lastWritten + workerData.retireAfterMs - Date.now()));
};
const written = () => { lastWritten = Date.now(); toldQuiet = false; interval = workerData.intervalMs; };
// While asleep: the open files' folders, each watched for a write to one of their -wal.
let watchers = null;
const stopWatching = () => {
  const asleep = watchers;
  watchers = null;
  for (const watcher of asleep?.values() ?? []) watcher.close();
  return asleep !== null;
};
const wake = () => {
  if (!stopWatching()) return;
  parentPort.postMessage({ asleep: false });
  lookIn(workerData.intervalMs);
};
/** Whether the worker sleeps now: false when a folder cannot be watched. */
const sleep = () => {
  watchers = new Map();
  for (const file of open.keys()) {
    const folder = dirname(file);
    if (watchers.has(folder)) continue;
    try {
      const watcher = watch(folder, (_event, name) => {
        if (typeof name === 'string' && name.endsWith('-wal') && open.has(join(folder, name.slice(0, -4)))) wake();
      });
      // A folder removed (tests) or watching refused: looked at on a timer instead.
      watcher.on('error', () => { if (stopWatching()) { parentPort.postMessage({ asleep: false }); lookIn(workerData.idleIntervalMs); } });
      watchers.set(folder, watcher);
    } catch {
      stopWatching();
      return false;
    }
  }
  // A commit between the last look and the watching would wake nobody: one more look.
  if (checkpointWritten(false)) {
    stopWatching();
    written();
    lookIn(interval);
    return true;
  }
  clearTimeout(timer);
  timer = null;
  retireLater();
  parentPort.postMessage({ asleep: true });
  return true;
};
const look = () => {
  if (checkpointWritten(false)) {
    written();
    return lookIn(interval);
  }
  tellIfQuiet();
  if (sleep()) return;
  interval = Math.min(interval * 2, workerData.idleIntervalMs);
  lookIn(interval);
};
lookIn(interval);
parentPort.on('message', (message) => {
  if (message.add !== undefined && !open.has(message.add)) {
    const file = quietly(() => connect(message.add));
    if (file) open.set(message.add, file);
    // A new file is written at once, as a rule: look at the usual pace again.
    if (stopWatching()) parentPort.postMessage({ asleep: false });
    interval = workerData.intervalMs;
    lookIn(interval);
  }
  if (message.remove !== undefined) {
    const file = open.get(message.remove);
    open.delete(message.remove);
    if (file) quietly(() => file.db.close());
    parentPort.postMessage({ removed: message.remove });
  }
  if (message.stop) { clearTimeout(timer); stopWatching(); checkpointWritten(true); for (const file of open.values()) quietly(() => file.db.close()); open.clear(); parentPort.close(); }
});
`;

/** How often, while no worker runs and the files are being written, the process looks at their WAL for sustained writing. */
const watchIntervalMs = 500;
/** Looks in a row that must each find a WAL written since the one before for the worker to start: ~1.5 s of writing. */
const busyAfterLooks = 3;
/** Nothing written for this long: the worker stops and the connections checkpoint themselves again. */
const retireAfterMs = 30_000;

export interface SqliteCheckpointerOptions {
  watchIntervalMs?: number;
  busyAfterLooks?: number;
  retireAfterMs?: number;
}

/**
 * Checkpoints the WAL of every SQLite file this process writes, from a worker thread.
 *
 * SQLite checkpoints in the connection that commits once the WAL passes 1000 pages: it copies
 * those pages into the database file and fsyncs it, on the event loop, every couple of
 * hundred pushes. Measured (issue 7, S1): with those checkpoints off the event loop, p99
 * 16 → 8 ms and 25% more pushes a second. Durability is unchanged: a commit is in the WAL
 * before it returns (synchronous = NORMAL) and the WAL is replayed on open.
 *
 * One worker for the whole process, started only once the process writes steadily: a worker
 * thread is ~15 MB of RSS on Node 24 (an idle embedded process 123.7 → 108.5 MB without it,
 * issue 23), which a process written seldom (a directory, resources) need not pay. Until
 * then each connection checkpoints itself as SQLite does by default (at 1000 pages), and the
 * event loop looks at the files' -wal every 500 ms (a stat each) while they are written;
 * once three looks in a row find one written since the look before, the worker starts and
 * takes every file; once nothing is written for 30 s it stops and hands them back. A look
 * that finds nothing written puts the looking to sleep, the worker's as the event loop's:
 * the files' folders are watched (inotify, no timer) and the next write to a -wal wakes it,
 * so an idle process is not woken at all, and a worker between bursts only once, to retire
 * (issue 24). It never keeps the process alive. Should it fail, the
 * connections go back to SQLite's own checkpoints.
 */
export class SqliteCheckpointer {
  private worker: Worker | null = null;
  private workerAsleep = false;
  private failed = false;
  /** The connections opened, by file; a file stays with the worker while one is open. */
  private readonly connections = new Map<string, Set<SqliteDatabase>>();
  /** Files handed back whose worker connection may still be open, with who waits for its close. */
  private readonly releasing = new Map<string, Array<() => void>>();
  /** Until the stopped worker exits: its connections may still touch the files. */
  private retiring: Promise<void> | null = null;
  /** The file each connection handed over was opened as. */
  private readonly fileOf = new WeakMap<SqliteDatabase, string>();
  /** While no worker runs and the files are written: each file's -wal modification time at the last look, and the looks in a row that found one written. */
  private watch: { timer: NodeJS.Timeout; lastWritten: Map<string, number>; writtenLooks: number } | null = null;
  /** While no worker runs and nothing was written at the last look: the files' folders, watched for a write to a -wal. */
  private asleep: Map<string, FSWatcher> | null = null;
  private readonly watchIntervalMs: number;
  private readonly busyAfterLooks: number;
  private readonly retireAfterMs: number;

  constructor(options: SqliteCheckpointerOptions = {}) {
    this.watchIntervalMs = options.watchIntervalMs ?? watchIntervalMs;
    this.busyAfterLooks = options.busyAfterLooks ?? busyAfterLooks;
    this.retireAfterMs = options.retireAfterMs ?? retireAfterMs;
  }

  /** Takes over `db`'s checkpoints (its file, resolved); `release` gives them back at close. */
  add(file: string, db: SqliteDatabase): void {
    if (this.failed) return;
    let open = this.connections.get(file);
    const newFile = !open;
    if (!open) {
      open = new Set();
      this.connections.set(file, open);
    }
    open.add(db);
    this.fileOf.set(db, file);
    if (!this.worker) {
      if (this.asleep) this.watchFolderOf(file);
      else this.watchForWriting();
    } else {
      if (newFile) this.worker.postMessage({ add: file });
      db.pragma('wal_autocheckpoint = 0');
    }
  }

  /** Starts the worker now and hands it every open file (tests; the process starts it once it writes steadily). */
  takeOverNow(): void {
    if (this.failed || this.worker || this.connections.size === 0) return;
    this.stopWatching();
    const worker = this.start();
    for (const [file, open] of this.connections) {
      worker.postMessage({ add: file });
      for (const db of open) if (db.open) db.pragma('wal_autocheckpoint = 0');
    }
  }

  /** Whether the event loop looks at the files on a timer now (for tests): not while they go unwritten. */
  get looking(): boolean {
    return this.watch !== null;
  }

  /** Whether the worker runs (for tests). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Whether the running worker sleeps, nothing written since its last look, until a -wal is written (for tests). */
  get sleeping(): boolean {
    return this.worker !== null && this.workerAsleep;
  }

  private watchForWriting(): void {
    if (this.watch) return;
    this.stopSleeping();
    const timer = setInterval(() => this.look(), this.watchIntervalMs);
    timer.unref();
    const lastWritten = new Map<string, number>();
    // The first look compares with now: a write just before it counts.
    for (const file of this.connections.keys()) lastWritten.set(file, walModifiedMs(file));
    this.watch = { timer, lastWritten, writtenLooks: 0 };
  }

  private stopWatching(): void {
    if (this.watch) clearInterval(this.watch.timer);
    this.watch = null;
    this.stopSleeping();
  }

  /** No look until a -wal is written: its folder's watcher wakes the looking. A folder that cannot be watched is looked at as before. */
  private sleep(): void {
    if (this.watch) clearInterval(this.watch.timer);
    this.watch = null;
    this.asleep = new Map();
    for (const file of this.connections.keys()) {
      if (!this.watchFolderOf(file)) return this.watchForWriting();
    }
  }

  private watchFolderOf(file: string): boolean {
    const asleep = this.asleep;
    if (!asleep) return true;
    const folder = dirname(file);
    if (asleep.has(folder)) return true;
    try {
      const watcher = watchDirectory(folder, { persistent: false }, (_event, name) => {
        if (typeof name === 'string' && name.endsWith('-wal') && this.connections.has(join(folder, name.slice(0, -'-wal'.length)))) this.watchForWriting();
      });
      // A folder removed (tests) or watching refused: looked at on a timer instead.
      watcher.on('error', () => {
        if (this.asleep === asleep) this.watchForWriting();
      });
      asleep.set(folder, watcher);
      return true;
    } catch {
      return false;
    }
  }

  private stopSleeping(): void {
    const asleep = this.asleep;
    this.asleep = null;
    for (const watcher of asleep?.values() ?? []) watcher.close();
  }

  /** One look at the files' -wal: the worker starts once enough looks in a row found one written since the look before. */
  private look(): void {
    const watch = this.watch;
    if (!watch) return;
    let written = false;
    for (const file of this.connections.keys()) {
      const modified = walModifiedMs(file);
      const before = watch.lastWritten.get(file);
      watch.lastWritten.set(file, modified);
      if (before !== undefined && modified !== before) written = true;
    }
    watch.writtenLooks = written ? watch.writtenLooks + 1 : 0;
    if (watch.writtenLooks >= this.busyAfterLooks) this.takeOverNow();
    else if (!written) this.sleep();
  }

  release(file: string, db: SqliteDatabase): void {
    const open = this.connections.get(file);
    if (!open?.delete(db) || open.size > 0) return;
    this.connections.delete(file);
    this.watch?.lastWritten.delete(file);
    if (this.worker) {
      this.releasing.set(file, this.releasing.get(file) ?? []);
      this.worker.postMessage({ remove: file });
    }
    if (this.connections.size === 0) this.stop();
  }

  /**
   * Resolves once the worker's own connection to `db`'s file is closed too (at once for a
   * connection never handed over). Until then the worker may still touch the file and its
   * -wal and -shm companions: a folder removed sooner could see them come back.
   */
  closed(db: SqliteDatabase): Promise<void> {
    if (db.open) return Promise.resolve();
    // A worker stopping (retired, or the last file released) still holds its connections until it exits.
    const retiring = this.retiring ?? Promise.resolve();
    const waiting = this.releasing.get(this.fileOf.get(db) ?? '');
    if (waiting === undefined) return retiring;
    return new Promise<void>((resolve) => waiting.push(resolve)).then(() => retiring);
  }

  /** Files whose checkpoints the worker does, or will once it starts (for tests). */
  get files(): string[] {
    return [...this.connections.keys()];
  }

  private start(): Worker {
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { binding: sqliteBinding(), sqliteModule: require.resolve('better-sqlite3'), intervalMs, idleIntervalMs, retireAfterMs: this.retireAfterMs },
    });
    worker.unref();
    this.workerAsleep = false;
    worker.on('message', (message: { removed?: string; quiet?: true; asleep?: boolean }) => {
      if (message.removed !== undefined) this.settle(message.removed);
      if (message.asleep !== undefined && this.worker === worker) this.workerAsleep = message.asleep;
      if (message.quiet && this.worker === worker) this.handBack();
    });
    worker.on('error', () => this.fail(worker));
    worker.on('exit', () => this.fail(worker));
    this.worker = worker;
    return worker;
  }

  /** Nothing written for a while: the connections checkpoint themselves again and the worker stops, until the process writes steadily again. */
  private handBack(): void {
    for (const open of this.connections.values()) {
      for (const db of open) if (db.open) db.pragma(`wal_autocheckpoint = ${sqliteDefaultAutocheckpoint}`);
    }
    this.stop();
    this.watchForWriting();
  }

  private stop(): void {
    this.stopWatching();
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => {
      // Its last checkpoints and closes take milliseconds; a worker that never exits does not hold a close up for long.
      const giveUp = setTimeout(resolve, 5000);
      giveUp.unref();
      worker.once('exit', () => {
        clearTimeout(giveUp);
        resolve();
      });
    });
    this.retiring = exited;
    void exited.then(() => {
      if (this.retiring === exited) this.retiring = null;
    });
    worker.postMessage({ stop: true });
  }

  private settle(file: string): void {
    const waiting = this.releasing.get(file);
    this.releasing.delete(file);
    for (const resolve of waiting ?? []) resolve();
  }

  /** The worker is gone while files were handed to it: their connections checkpoint themselves again. */
  private fail(worker: Worker): void {
    // A worker gone (stopped or failed) holds no connection any more.
    for (const file of [...this.releasing.keys()]) this.settle(file);
    if (this.worker !== worker) return; // stopped on purpose
    this.worker = null;
    this.failed = true;
    for (const open of this.connections.values()) {
      for (const db of open) if (db.open) db.pragma(`wal_autocheckpoint = ${sqliteDefaultAutocheckpoint}`);
    }
    this.connections.clear();
  }
}

/** The -wal's modification time in ms (0 while there is none). */
function walModifiedMs(file: string): number {
  try {
    return statSync(`${file}-wal`).mtimeMs;
  } catch {
    return 0;
  }
}

export const sqliteCheckpointer = new SqliteCheckpointer();

/**
 * Closes a database opened with `openSqlite`, resolving once no connection of this process
 * (the checkpointer's included) has its file open: a store's `close()` awaits it, so a stopped
 * service leaves its files alone.
 */
export async function closeSqlite(db: SqliteDatabase): Promise<void> {
  if (!db.open) return;
  db.close();
  await sqliteCheckpointer.closed(db);
}

/**
 * Hands `db`'s checkpoints to the process's checkpointer until `db.close()`. `file` is the
 * path it was opened with, resolved.
 */
export function checkpointInBackground(db: SqliteDatabase, file: string): void {
  sqliteCheckpointer.add(file, db);
  // better-sqlite3 tells nobody about a close: its own close is wrapped, for every store.
  const close = db.close.bind(db);
  db.close = () => {
    const result = close();
    sqliteCheckpointer.release(file, db);
    return result;
  };
}
