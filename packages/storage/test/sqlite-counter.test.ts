import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countersMigration, nextSqliteId, openSqlite } from '../src';

describe('nextSqliteId', () => {
  it('counts from 1, separately for each name', () => {
    const db = openSqlite(':memory:', [countersMigration(1)]);
    expect([nextSqliteId(db, 'forms'), nextSqliteId(db, 'forms'), nextSqliteId(db, 'forms')]).toEqual([1, 2, 3]);
    expect(nextSqliteId(db, 'devices')).toBe(1);
    expect(nextSqliteId(db, 'forms')).toBe(4);
    db.close();
  });

  it('takes part in the caller transaction: a rolled-back id is given again', () => {
    const db = openSqlite(':memory:', [countersMigration(1)]);
    nextSqliteId(db, 'forms');
    const failing = db.transaction(() => {
      expect(nextSqliteId(db, 'forms')).toBe(2);
      throw new Error('change refused');
    });
    expect(() => failing()).toThrow('change refused');
    expect(db.transaction(() => nextSqliteId(db, 'forms'))()).toBe(2);
    db.close();
  });

  it('keeps counting after the database is reopened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-counter-'));
    try {
      const file = join(dir, 'counters.sqlite');
      const first = openSqlite(file, [countersMigration(1)]);
      nextSqliteId(first, 'groups');
      nextSqliteId(first, 'groups');
      first.close();
      const second = openSqlite(file, [countersMigration(1)]);
      expect(nextSqliteId(second, 'groups')).toBe(3);
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});
