import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '@formcast/platform';

/**
 * Data files (SQLite databases, the admin token) are their owner's only: 0600 in a 0700
 * folder. They hold hashes of credentials and, in a database, what organizations submit.
 * New ones are created so; existing ones with wider modes are tightened when opened, and
 * the change logged (the next start finds nothing to change, so it is logged once).
 */
export const privateFileMode = 0o600;
export const privateFolderMode = 0o700;

const groupOrOthers = 0o077;
/** A folder with the sticky bit (`/tmp`) is shared by design: left as it is. */
const stickyBit = 0o1000;

/** A mode change made, or one that could not be made, for the log line. */
export interface ModeChange {
  path: string;
  from: string;
  to: string;
  /** Why the mode was left as it is. */
  leftAsItIs?: string;
}

/** SQLite's companion files of a database: they hold its pages too. */
const sqliteCompanionSuffixes = ['-wal', '-shm', '-journal'];

/**
 * Before SQLite opens `file`: its folder exists and is 0700, the file exists and is 0600,
 * and so are its companion files that exist (SQLite creates missing ones with the
 * database's mode). One warning lists every mode it changed or could not change.
 */
export function prepareSqliteFile(file: string, logger: Logger): void {
  const changes = [...makePrivateFolder(dirname(file)), ...createPrivateFile(file)];
  for (const suffix of sqliteCompanionSuffixes) changes.push(...tightenIfPresent(file + suffix, privateFileMode));
  logModeChanges(logger, changes);
}

/** Creates the folder (and its parents) 0700 if missing; an existing one is tightened to 0700. */
export function makePrivateFolder(folder: string): ModeChange[] {
  mkdirSync(folder, { recursive: true, mode: privateFolderMode });
  const { mode } = statSync(folder);
  if ((mode & groupOrOthers) === 0) return [];
  if (mode & stickyBit) {
    return [{ path: folder, from: octal(mode), to: octal(privateFolderMode), leftAsItIs: 'a shared folder (sticky bit): give the data a folder of its own' }];
  }
  return [tighten(folder, mode, privateFolderMode)];
}

/**
 * Creates the file empty and 0600 if missing; tightens it to 0600 if it exists. An
 * existing file is never opened here: closing another descriptor of a SQLite database the
 * process has open would drop that connection's POSIX locks.
 */
export function createPrivateFile(file: string): ModeChange[] {
  try {
    closeSync(openSync(file, 'wx', privateFileMode));
    return [];
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  return tightenIfPresent(file, privateFileMode);
}

/** Tightens an existing file or folder to `wanted` when group or others have any right to it. */
export function tightenIfPresent(path: string, wanted: number): ModeChange[] {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  }
  return (mode & groupOrOthers) === 0 ? [] : [tighten(path, mode, wanted)];
}

/** One line for all the changes of one opening, nothing when there are none. */
export function logModeChanges(logger: Logger, changes: ModeChange[]): void {
  if (changes.length === 0) return;
  if (changes.some((change) => change.leftAsItIs)) {
    logger.warn({ modes: changes }, 'data files or folders other users can read: some could not be made private to their owner');
  } else {
    logger.warn({ modes: changes }, 'data files or folders other users could read were made private to their owner');
  }
}

function tighten(path: string, mode: number, wanted: number): ModeChange {
  const change = { path, from: octal(mode), to: octal(wanted) };
  try {
    chmodSync(path, wanted);
    return change;
  } catch (error) {
    // Not its owner (a mounted volume): say so, and go on with the mode it has.
    return { ...change, leftAsItIs: `chmod failed: ${(error as { code?: string }).code ?? String(error)}` };
  }
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8)}`;
}
