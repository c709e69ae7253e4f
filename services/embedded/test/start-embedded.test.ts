import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, parseSettings } from '@formcast/platform';
import { startEmbedded } from '../src/start-embedded';

const logger = createLogger({ level: 'silent' });

describe('embedded mode', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'formcast-embedded-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const settings = () => parseSettings({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

  it('generates an admin token once, keeps it private in DATA_DIR, and reuses it after a restart', async () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const first = await startEmbedded(settings(), logger);
      await first.stop();
      const second = await startEmbedded(settings(), logger);
      await second.stop();
      expect(second.adminToken).toBe(first.adminToken);
      const printed = write.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes(first.adminToken));
      expect(printed).toHaveLength(1);
    } finally {
      write.mockRestore();
    }
    const file = join(dataDir, 'admin-token');
    expect(readFileSync(file, 'utf8').trim()).not.toHaveLength(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps organizations, tokens and groups across a restart', async () => {
    const env = { ...settings(), ADMIN_TOKEN: 'restart-admin-token-0123456789' };
    const first = await startEmbedded(env, logger);
    const base = `http://127.0.0.1:${first.port}`;
    const created = await fetch(`${base}/admin/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Durable' }),
    }).then((r) => r.json() as Promise<{ organization: { id: number }; api_token: string }>);
    const auth = { authorization: `Basic ${Buffer.from(`${created.api_token}:x`).toString('base64')}` };
    const groupsPath = `/organizations/${created.organization.id}/groups`;
    const made = await fetch(`${base}${groupsPath}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(['Survivors']),
    });
    expect(made.status).toBe(201);
    await first.stop();

    const second = await startEmbedded(env, logger);
    try {
      const res = await fetch(`http://127.0.0.1:${second.port}${groupsPath}.json`, { headers: auth });
      expect(res.status).toBe(200);
      const names = ((await res.json()) as { groups: Array<{ name: string }> }).groups.map((g: { name: string }) => g.name);
      expect(names).toEqual(['Default', 'Survivors']);
    } finally {
      await second.stop();
    }
  });
});
