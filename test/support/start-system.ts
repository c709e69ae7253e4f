import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AmqpBus, type Bus } from '@formcast/bus';
import { serviceStarters, startEmbedded } from '@formcast/embedded';
import { createGatewayApp, GatewayRateLimits, httpTimeouts, listenOn, LoadShedder, loadSheddingSettings, rateLimitSettings } from '@formcast/gateway';
import { createLogger, parseSettings, type Logger, type RunningService, type ServiceStarter } from '@formcast/platform';
import { deleteTestTopology, uniqueName } from '@formcast/testing';
import { ApiClient } from './api-client';
import { distributedModeEnabled, onlyModes, processNameOf, startDistributed, testShedding } from './start-distributed';


export type SystemMode = 'embedded' | 'rabbitmq' | 'distributed';

/**
 * Every end-to-end suite runs in these modes: the two Formcast runs in, `embedded` and
 * `distributed` (every service a node process of its own, from dist/, built first when
 * stale; left out with E2E_DISTRIBUTED=0). `rabbitmq` (the services as bus peers inside the
 * test process) crosses the same AMQP topology as `distributed` from the same code, so it
 * runs only when E2E_MODES names it (`E2E_MODES=embedded,rabbitmq,distributed`: all three);
 * E2E_MODES, when set, names exactly the modes that run.
 */
const allModes: SystemMode[] = ['embedded', 'rabbitmq', 'distributed'];
export const systemModes: SystemMode[] = allModes.filter((mode) =>
  onlyModes
    ? onlyModes.includes(mode) && (mode !== 'distributed' || distributedModeEnabled)
    : mode === 'embedded' || (mode === 'distributed' && distributedModeEnabled),
);

export const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

export interface RunningSystem {
  api: ApiClient;
  adminToken: string;
  stop(): Promise<void>;
}

const adminToken = 'test-admin-token-0123456789abcdef';

const quietLogger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * `embedded`: exactly what `npm start` runs (one process, in-process bus, SQLite).
 * `rabbitmq`: the gateway and every service as separate bus peers over the RabbitMQ of this
 * machine, each on its own connection, under a topology prefix of their own.
 * `distributed`: the gateway and each service as a node process of its own, started from
 * dist/ like `npm run start:<service>` (test/support/start-distributed.ts); a starter made by
 * the test (a notifier with an FCM stand-in) runs in this process as its own bus peer.
 */
export async function startSystem(
  mode: SystemMode,
  env: Record<string, string> = {},
  options: { starters?: ServiceStarter<Bus>[]; logger?: Logger } = {},
): Promise<RunningSystem> {
  const starters = options.starters ?? serviceStarters;
  const logger = options.logger ?? quietLogger;
  if (mode === 'distributed') {
    const system = await startDistributed({
      services: starters.map(processNameOf).filter((name): name is string => name !== undefined),
      peers: starters.filter((start) => processNameOf(start) === undefined),
      env,
      logger: options.logger,
      adminToken,
    });
    return { api: system.api, adminToken, stop: system.stop };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-e2e-'));
  const settings = parseSettings({ PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent', ...testShedding, ...env });
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });

  if (mode === 'embedded') {
    const system = await startEmbedded(settings, logger, { starters });
    return {
      api: new ApiClient(`http://127.0.0.1:${system.port}`),
      adminToken,
      stop: async () => {
        await system.stop();
        cleanup();
      },
    };
  }

  const prefix = uniqueName('e2e');
  const peers: Array<{ bus: AmqpBus; service: RunningService }> = [];
  for (const start of starters) {
    const bus = new AmqpBus({ url: amqpUrl, logger, prefix });
    peers.push({ bus, service: await start({ bus, settings, logger }) });
    await bus.start();
  }
  const gatewayBus = new AmqpBus({ url: amqpUrl, logger, prefix });
  await gatewayBus.start();
  const shedder = new LoadShedder(loadSheddingSettings(settings));
  const app = createGatewayApp({
    bus: gatewayBus,
    logger,
    adminToken,
    commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    resourceMaxBytes: settings.RESOURCE_MAX_BYTES,
    submissionImageMaxBytes: settings.SUBMISSION_IMAGE_MAX_BYTES,
    timeouts: httpTimeouts(settings),
    rateLimits: new GatewayRateLimits(rateLimitSettings(settings)),
    loadShedding: shedder,
  });
  const server: Server = await listenOn(app, 0, httpTimeouts(settings), undefined, settings.HTTP_ACCEPT_SOCKETS);
  return {
    api: new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    adminToken,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      shedder.stop();
      await gatewayBus.close();
      for (const { bus, service } of peers) {
        await bus.close();
        await service.stop();
      }
      await deleteTestTopology(amqpUrl, prefix, [...peers.map((p) => p.service.name), 'gateway']);
      cleanup();
    },
  };
}
