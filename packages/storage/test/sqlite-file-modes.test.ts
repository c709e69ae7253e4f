import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openSqlite, type SqliteDatabase } from '../src';

const dataDir = mkdtempSync(join(tmpdir(), 'storage-modes-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

let folderNumber = 0;
const newFolder = () => join(dataDir, `data-${++folderNumber}`);

const modeOf = (path: string) => statSync(path).mode & 0o7777;

/** A real pino logger whose lines the test reads. */
function capturingLogger() {
  const lines: Array<{ level: number; msg: string; modes?: Array<{ path: string; from: string; to: string; leftAsItIs?: string }> }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const opened: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function openWithWrite(file: string, logger: pino.Logger): SqliteDatabase {
  const db = openSqlite(file, [{ version: 1, up: 'CREATE TABLE IF NOT EXISTS notes (text TEXT)' }], { logger });
  opened.push(db);
  db.prepare('INSERT INTO notes (text) VALUES (?)').run('secret-ish');
  return db;
}

describe('SQLite data files are private to their owner', () => {
  it('creates the database, its -wal and -shm 0600, and its folders 0700, saying nothing', () => {
    const folder = newFolder();
    const file = join(folder, 'nested', 'app.sqlite');
    const { logger, lines } = capturingLogger();

    openWithWrite(file, logger);

    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(join(folder, 'nested'))).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}-wal`)).toBe(0o600);
    expect(modeOf(`${file}-shm`)).toBe(0o600);
    expect(lines).toEqual([]);
  });

  it('tightens an existing database, its companions and its folder when opened, in one warning, once', () => {
    const folder = newFolder();
    const file = join(folder, 'app.sqlite');
    const first = capturingLogger();
    openWithWrite(file, first.logger).close();
    // As an older release left them: the process's umask (0644, 0755).
    writeFileSync(`${file}-wal`, '');
    for (const path of [file, `${file}-wal`]) chmodSync(path, 0o644);
    chmodSync(folder, 0o755);

    const second = capturingLogger();
    openWithWrite(file, second.logger);

    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}-wal`)).toBe(0o600);
    expect(modeOf(`${file}-shm`)).toBe(0o600);
    expect(second.lines).toHaveLength(1);
    expect(second.lines[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/made private to their owner/) });
    expect(second.lines[0]!.modes).toEqual(
      expect.arrayContaining([
        { path: folder, from: '0755', to: '0700' },
        { path: file, from: '0644', to: '0600' },
        { path: `${file}-wal`, from: '0644', to: '0600' },
      ]),
    );

    const third = capturingLogger();
    openWithWrite(file, third.logger);
    expect(third.lines).toEqual([]);
  });

  it('leaves a shared folder (sticky bit, as /tmp) as it is and says so, the file still 0600', () => {
    const shared = newFolder();
    mkdirSync(shared, { mode: 0o700 });
    chmodSync(shared, 0o1777);
    const file = join(shared, 'app.sqlite');
    const { logger, lines } = capturingLogger();

    openWithWrite(file, logger);

    expect(modeOf(shared)).toBe(0o1777);
    expect(modeOf(file)).toBe(0o600);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.modes).toEqual([{ path: shared, from: '01777', to: '0700', leftAsItIs: expect.stringMatching(/sticky bit/) }]);
  });

  it('keeps what an existing database holds (the file is never recreated)', () => {
    const file = join(newFolder(), 'app.sqlite');
    const { logger } = capturingLogger();
    openWithWrite(file, logger).close();
    chmodSync(file, 0o664);
    const again = openWithWrite(file, logger);
    expect(again.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(2);
    expect(modeOf(file)).toBe(0o600);
  });
});
