import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { AmqpBus } from '@formcast/bus';
import { serviceStarters, startEmbedded } from '@formcast/embedded';
import { createGatewayApp } from '@formcast/gateway';
import { parseSettings, redactedPaths, type RunningService } from '@formcast/platform';
import { deleteTestTopology, uniqueName } from '@formcast/testing';
import { ApiClient } from './support/api-client';
import { createOrganization } from './support/fixtures';
import { amqpUrl, systemModes, type SystemMode } from './support/start-system';
import { mime } from './fixtures/resource-files';

const adminToken = 'logging-admin-token-0123456789abcdef';

/**
 * The system of `startSystem`, logging everything (trace) into `lines` with the platform's
 * redaction, so a test can read what every part of it logged.
 */
async function startLoggedSystem(mode: SystemMode, lines: string[]): Promise<{ api: ApiClient; stop(): Promise<void> }> {
  const logger = pino(
    { level: 'trace', redact: { paths: redactedPaths, censor: '[redacted]' } },
    { write: (line: string) => void lines.push(line) },
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-logging-'));
  const settings = parseSettings({ PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'trace' });
  if (mode === 'embedded') {
    const system = await startEmbedded(settings, logger);
    return {
      api: new ApiClient(`http://127.0.0.1:${system.port}`),
      stop: async () => {
        await system.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const prefix = uniqueName('e2e');
  const peers: Array<{ bus: AmqpBus; service: RunningService }> = [];
  for (const start of serviceStarters) {
    const bus = new AmqpBus({ url: amqpUrl, logger, prefix });
    peers.push({ bus, service: await start({ bus, settings, logger }) });
    await bus.start();
  }
  const gatewayBus = new AmqpBus({ url: amqpUrl, logger, prefix });
  await gatewayBus.start();
  const app = createGatewayApp({
    bus: gatewayBus,
    logger,
    adminToken,
    commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    resourceMaxBytes: settings.RESOURCE_MAX_BYTES,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, () => resolve(s));
  });
  return {
    api: new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await gatewayBus.close();
      for (const { bus, service } of peers) {
        await bus.close();
        await service.stop();
      }
      await deleteTestTopology(amqpUrl, prefix, peers.map((p) => p.service.name));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(systemModes)('Resources: file bytes never reach the logs (%s)', (mode) => {
  const lines: string[] = [];
  let system: Awaited<ReturnType<typeof startLoggedSystem>>;

  beforeAll(async () => {
    system = await startLoggedSystem(mode, lines);
  });
  afterAll(() => system?.stop());

  it('logs requests and failures at trace level, never the file or its Base64', async () => {
    const { api } = system;
    const org = await createOrganization(api, adminToken);
    const secret = 'CONFIDENTIAL-PAYROLL-4242';
    const bytes = Buffer.from(`${secret}\n`.repeat(50));
    const base64 = bytes.toString('base64');
    const file = (contentType: string, data = base64) => ({ file_name: 'payroll.txt', file_data: data, content_type: contentType });

    const created = await api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'payroll', file: file(mime.text) } } });
    expect(created.status).toBe(201);
    const id = created.json().resource.id;
    expect((await api.get(`/api/resources/${id}`, { token: org.token })).text).toBe(bytes.toString());
    // Failures of every kind: refused type, bytes that are not the type, a size the service refuses.
    expect((await api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'x', file: file('image/gif') } } })).status).toBe(415);
    expect((await api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'x', file: file(mime.png) } } })).status).toBe(422);
    const form = `resource[description]=x&resource[file][file_name]=a&resource[file][content_type]=${encodeURIComponent(mime.json)}&resource[file][file_data]=${encodeURIComponent(base64)}`;
    expect((await api.post('/api/resources.json', { token: org.token, body: form, contentType: 'application/x-www-form-urlencoded' })).status).toBe(422);
    expect((await api.put(`/api/resources/${id}.json`, { token: org.token, json: { resource: { file: file(mime.text) } } })).status).toBe(200);

    const logged = lines.join('');
    expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(6);
    expect(lines.some((line) => line.includes('"msg":"command failed"'))).toBe(true);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(base64.slice(0, 40));
  });
});
