import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createLogger, parseSettings } from '@formcast/platform';
import { deleteTestTopology, uniqueName } from '@formcast/testing';
import { connect } from 'amqplib';
import { startEmbedded } from '../src/start-embedded';

const logger = createLogger({ level: 'silent' });

describe('embedded mode', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'formcast-embedded-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

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

  it('spends no generated token on a start that fails: nothing printed, nothing kept', async () => {
    const taken = createServer();
    await new Promise<void>((resolveListen) => taken.listen(0, resolveListen));
    const port = String((taken.address() as AddressInfo).port);
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await expect(startEmbedded(parseSettings({ PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), logger)).rejects.toThrow();
      expect(write.mock.calls.map(([chunk]) => String(chunk)).join('')).not.toContain('Generated an admin token');
    } finally {
      write.mockRestore();
      await new Promise((closed) => taken.close(closed));
    }
    expect(existsSync(join(dataDir, 'admin-token'))).toBe(false);
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

  it('fails to start with a message naming PORT when the port is taken, and starts on the same DATA_DIR afterwards', async () => {
    const taken = await new Promise<Server>((resolve) => {
      const server = createServer().listen(0, '0.0.0.0', () => resolve(server));
    });
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(startEmbedded(parseSettings({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN: 'a'.repeat(32) }), logger)).rejects.toThrow(
        `Cannot serve HTTP on PORT ${port}`,
      );
    } finally {
      taken.close();
    }
    const again = await startEmbedded({ ...settings(), ADMIN_TOKEN: 'a'.repeat(32) }, logger);
    await again.stop();
  });

  it('puts its RabbitMQ queues under AMQP_PREFIX when it runs on AMQP_URL', async () => {
    const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
    const prefix = uniqueName('embedded_prefix');
    const system = await startEmbedded(
      parseSettings({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN: 'b'.repeat(32), AMQP_URL: amqpUrl, AMQP_PREFIX: prefix }),
      logger,
    );
    const connection = await connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      await expect(channel.checkQueue(`${prefix}.directory.commands`)).resolves.toMatchObject({ consumerCount: 1 });
      await expect(channel.checkQueue(`${prefix}.push.commands`)).resolves.toMatchObject({ consumerCount: 1 });
    } finally {
      await connection.close();
      await system.stop();
      await deleteTestTopology(amqpUrl, prefix, ['directory', 'resources', 'push', 'notifier', 'gateway']);
    }
  });
});
