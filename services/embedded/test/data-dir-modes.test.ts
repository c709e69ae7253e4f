import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, parseSettings } from '@formcast/platform';
import { startEmbedded } from '../src/start-embedded';

const logger = createLogger({ level: 'silent' });

describe('DATA_DIR of embedded mode', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'formcast-data-modes-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it('holds every file it writes (databases, their -wal/-shm, the admin token) 0600 in a 0700 folder', async () => {
    const dataDir = join(root, 'data');
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const running = await startEmbedded(parseSettings({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), logger);
      try {
        const created = await fetch(`http://127.0.0.1:${running.port}/admin/organizations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${running.adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Modes' }),
        });
        expect(created.status).toBe(201);
        const files = readdirSync(dataDir);
        expect(files).toEqual(expect.arrayContaining(['admin-token', 'directory.sqlite', 'directory.sqlite-wal', 'push.sqlite']));
        expect(modeOf(dataDir)).toBe(0o700);
        expect(files.map((name) => [name, modeOf(join(dataDir, name))])).toEqual(files.map((name) => [name, 0o600]));
      } finally {
        await running.stop();
      }
    } finally {
      write.mockRestore();
    }
  });
});

function modeOf(path: string): number {
  return statSync(path).mode & 0o7777;
}
