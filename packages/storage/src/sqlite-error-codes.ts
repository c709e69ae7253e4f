/*
 * SQLite's result codes by name, as better-sqlite3 puts them in an error's `code`
 * ("SQLITE_CONSTRAINT_UNIQUE"); node:sqlite gives only the number (`errcode`: 2067).
 * From sqlite3.h: an extended code is its primary code plus (n << 8), n counted from 1.
 */
const primary: Record<number, string> = {
  1: 'ERROR', 2: 'INTERNAL', 3: 'PERM', 4: 'ABORT', 5: 'BUSY', 6: 'LOCKED', 7: 'NOMEM',
  8: 'READONLY', 9: 'INTERRUPT', 10: 'IOERR', 11: 'CORRUPT', 12: 'NOTFOUND', 13: 'FULL',
  14: 'CANTOPEN', 15: 'PROTOCOL', 16: 'EMPTY', 17: 'SCHEMA', 18: 'TOOBIG', 19: 'CONSTRAINT',
  20: 'MISMATCH', 21: 'MISUSE', 22: 'NOLFS', 23: 'AUTH', 24: 'FORMAT', 25: 'RANGE',
  26: 'NOTADB', 27: 'NOTICE', 28: 'WARNING',
};

/** Each primary code's extended names, the nth at index n - 1 (an empty name: none). */
const extended: Record<number, string[]> = {
  1: ['MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT', 'RESERVESIZE', 'KEY', 'UNABLE'],
  4: ['', 'ROLLBACK'],
  5: ['RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  6: ['SHAREDCACHE', 'VTAB'],
  8: ['RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  10: [
    'READ', 'SHORT_READ', 'WRITE', 'FSYNC', 'DIR_FSYNC', 'TRUNCATE', 'FSTAT', 'UNLOCK', 'RDLOCK',
    'DELETE', 'BLOCKED', 'NOMEM', 'ACCESS', 'CHECKRESERVEDLOCK', 'LOCK', 'CLOSE', 'DIR_CLOSE',
    'SHMOPEN', 'SHMSIZE', 'SHMLOCK', 'SHMMAP', 'SEEK', 'DELETE_NOENT', 'MMAP', 'GETTEMPPATH',
    'CONVPATH', 'VNODE', 'AUTH', 'BEGIN_ATOMIC', 'COMMIT_ATOMIC', 'ROLLBACK_ATOMIC', 'DATA',
    'CORRUPTFS', 'IN_PAGE',
  ],
  11: ['VTAB', 'SEQUENCE', 'INDEX'],
  14: ['NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  19: [
    'CHECK', 'COMMITHOOK', 'FOREIGNKEY', 'FUNCTION', 'NOTNULL', 'PRIMARYKEY', 'TRIGGER', 'UNIQUE',
    'VTAB', 'ROWID', 'PINNED', 'DATATYPE',
  ],
  23: ['USER'],
  27: ['RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  28: ['AUTOINDEX'],
};

/** `2067` → `'SQLITE_CONSTRAINT_UNIQUE'`; an extended code unknown here gets its primary code's name. */
export function sqliteCodeName(code: number): string {
  const base = primary[code & 0xff];
  if (base === undefined) return `UNKNOWN_SQLITE_ERROR_${code}`;
  const detail = extended[code & 0xff]?.[(code >> 8) - 1];
  return detail ? `SQLITE_${base}_${detail}` : `SQLITE_${base}`;
}
