import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { resolveAdminToken } from '../src/admin-token';

const root = mkdtempSync(join(tmpdir(), 'formcast-admin-token-'));
afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

let folderNumber = 0;
const newDataDir = () => join(root, `data-${++folderNumber}`);
const modeOf = (path: string) => statSync(path).mode & 0o7777;

function capturingLogger() {
  const lines: Array<{ level: number; msg: string; modes?: unknown[] }> = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }), lines };
}

describe('resolveAdminToken', () => {
  let write: jest.SpyInstance;
  beforeEach(() => {
    write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => write.mockRestore());

  it('generates the token into DATA_DIR/admin-token, 0600 in a 0700 DATA_DIR it creates', () => {
    const dataDir = newDataDir();
    const { logger, lines } = capturingLogger();

    const { token, keep } = resolveAdminToken(undefined, dataDir, logger);
    expect(() => statSync(join(dataDir, 'admin-token'))).toThrow(); // not before keep()
    expect(write).not.toHaveBeenCalled();
    keep();

    expect(write.mock.calls.map(([chunk]) => String(chunk)).join('')).toContain(token);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'admin-token'), 'utf8')).toBe(`${token}\n`);
    expect(modeOf(join(dataDir, 'admin-token'))).toBe(0o600);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it('tightens a token file and DATA_DIR others could read, logs it once, and keeps the token', () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'admin-token'), 'kept-admin-token-0123456789\n', { mode: 0o644 });
    chmodSync(join(dataDir, 'admin-token'), 0o644);
    const first = capturingLogger();

    expect(resolveAdminToken(undefined, dataDir, first.logger).token).toBe('kept-admin-token-0123456789');

    expect(modeOf(join(dataDir, 'admin-token'))).toBe(0o600);
    expect(modeOf(dataDir)).toBe(0o700);
    const warnings = first.lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.modes).toEqual([
      { path: dataDir, from: '0755', to: '0700' },
      { path: join(dataDir, 'admin-token'), from: '0644', to: '0600' },
    ]);

    const second = capturingLogger();
    const second_ = resolveAdminToken(undefined, dataDir, second.logger);
    second_.keep();
    expect(second_.token).toBe('kept-admin-token-0123456789');
    expect(second.lines).toEqual([]);
    expect(write).not.toHaveBeenCalled();
  });

  it('uses the configured token and writes no file', () => {
    const dataDir = newDataDir();
    const configured = resolveAdminToken('configured-admin-token-0123456789', dataDir, capturingLogger().logger);
    configured.keep();
    expect(configured.token).toBe('configured-admin-token-0123456789');
    expect(() => statSync(join(dataDir, 'admin-token'))).toThrow();
  });
});
