import express, { type Express } from 'express';
import type { Bus } from '@formcast/bus';
import { deviceChangedPayload, directoryCommands, directoryEvents, tokenRevokedPayload } from '@formcast/contracts';
import { AppError, parsePayload, settingsSchema, type Logger } from '@formcast/platform';
import { healthRoutes } from '../routes/health';
import { openApiRoutes } from '../openapi/docs-routes';
import { adminOrganizationScope } from '../routes/admin';
import { admin, resources, resourcesV3, resourcesV4, submissionImages, enrollment, deviceSide, submissions, clients, destinations, dispatches, organizationDispatches, devicesFirstGeneration, devicesSecondGeneration, devicesSecondGenerationV2, formLocks, forms, groupsFirstGeneration, organizationOneshots, remoteConnections, groupsSecondGeneration, groupsSecondGenerationV2, reports, routerOf, type RouteTableDeps } from '../route-table';
import { gatedRouter } from './path-gate';
import { readResourceBody } from '../routes/resources';
import { requireAdminToken, requireApiToken as requireApiTokenAlone, requireDeviceSecret } from './authenticate';
import { watchRequestBodies } from './body-watch';
import { consoleStatic } from './console-static';
import { DeviceSecretCache } from './device-secret-cache';
import { errorHandler } from './error-handler';
import { pauseRefusedConnections } from './refused-connection-pause';
import { decideFormatSuffix } from './format-suffix';
import { useHttpMetrics, type HttpMetricsOptions } from './http-metrics';
import { useHttpTracing } from './http-tracing';
import { defaultHttpTimeouts, type HttpTimeouts } from './http-timeouts';
import { readBodyUpTo, readLimitedBody } from './limited-body';
import { requireOwnOrganization } from './organization-scope';
import type { LoadShedder } from './load-shedding';
import { pathBeforeBody } from './path-before-body';
import { GatewayRateLimits } from './rate-limit';
import { requestContext } from './request-context';
import { attachmentFetcher, commandSender, type SendCommand } from './send-command';
import { TokenCache } from './token-cache';
import { refuseUnwritableUrl } from './unwritable-url';

/** The gateway's name on the bus: its event queue (token revocations, device changes). */
export const gatewayServiceName = 'gateway';

export interface GatewayOptions {
  bus: Bus;
  logger: Logger;
  adminToken: string;
  commandTimeoutMs: number;
  bodyLimitBytes: number;
  /** RESOURCE_MAX_BYTES: the largest resource file, once decoded (default: the setting's). */
  resourceMaxBytes?: number;
  /** SUBMISSION_IMAGE_MAX_BYTES: the largest submission image (default: the setting's). */
  submissionImageMaxBytes?: number;
  /** Headers, bodies, refused bodies, keep-alive (default: the settings' defaults); give listenOn the same. */
  timeouts?: HttpTimeouts;
  /** Readiness beyond the bus (stores of co-located services, …). */
  isReady?: () => Promise<boolean>;
  /** Prometheus: requests recorded unless METRICS_ENABLED is false; `/metrics` here only when asked (embedded mode). */
  metrics?: HttpMetricsOptions;
  /** Rate limits (http/rate-limit.ts); default: none. */
  rateLimits?: GatewayRateLimits;
  /** Load shedding (http/load-shedding.ts): 503 at once past its bounds; default: none. */
  loadShedding?: LoadShedder;
}

/** The HTTP surface: each request becomes a command on the bus. */
export function createGatewayApp(options: GatewayOptions): Express {
  const { bus, logger, commandTimeoutMs } = options;
  const devices = new DeviceSecretCache({ ttlMs: 5000, maxEntries: 10000 });
  const send = forgettingDeletedDevices(commandSender(bus, commandTimeoutMs), devices);
  const tokens = new TokenCache({ ttlMs: 5000, maxEntries: 10000 });
  const limits = options.rateLimits ?? new GatewayRateLimits(false);
  // Every route an API token authenticates then takes a token of its organization's bucket.
  // Then the organization's bound of requests under way (load shedding), if any.
  const shedder = options.loadShedding;
  const requireApiToken = (...args: Parameters<typeof requireApiTokenAlone>) => {
    const limited = limits.afterApiToken(requireApiTokenAlone(...args));
    return shedder ? shedder.afterApiToken(limited) : limited;
  };
  bus.subscribe(gatewayServiceName, directoryEvents.tokenRevoked, async (event) => {
    tokens.forgetOrganization(parsePayload(tokenRevokedPayload, event.payload).orgId);
  });
  bus.subscribe(gatewayServiceName, directoryEvents.deviceChanged, async (event) => {
    const { orgId, deviceId } = parsePayload(deviceChangedPayload, event.payload);
    devices.forgetDevice(orgId, deviceId);
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // Refused at the door when overloaded, before anything else is spent on the request (load-shedding.ts).
  if (options.loadShedding) app.use(options.loadShedding.door);
  app.use(requestContext(logger));
  useHttpTracing(app);
  useHttpMetrics(app, options.adminToken, options.metrics);
  app.use(watchRequestBodies(options.timeouts ?? defaultHttpTimeouts, options.bodyLimitBytes));
  // After the body watch (a shed request's body is drained as any refused one), before any work.
  if (options.loadShedding) app.use(options.loadShedding.middleware);
  app.use(gatedRouter(healthRoutes(async () => bus.isReady() && (options.isReady ? await options.isReady() : true))));
  app.use(gatedRouter(openApiRoutes()));
  app.use(refuseUnwritableUrl);
  app.use('/console', consoleStatic());
  // Before any route, its authentication or its body: a `.JSON` is `.json`, a `.foo` is 404 here.
  app.use(decideFormatSuffix);
  const resourceMaxBytes = options.resourceMaxBytes ?? settingsSchema.shape.RESOURCE_MAX_BYTES.parse(undefined);
  const imageMaxBytes = options.submissionImageMaxBytes ?? settingsSchema.shape.SUBMISSION_IMAGE_MAX_BYTES.parse(undefined);
  const table: RouteTableDeps = {
    send,
    fetchWithAttachment: attachmentFetcher(bus, commandTimeoutMs),
    deadLetters: bus,
    resourceMaxBytes,
    bodyReaders: {
      RESOURCE_MAX_BYTES: readResourceBody(resourceMaxBytes),
      SUBMISSION_IMAGE_MAX_BYTES: readLimitedBody(imageMaxBytes, () => `a submission image may be at most ${imageMaxBytes} bytes`),
    },
  };
  // Resources read their own, larger bodies: mounted before the global parser would refuse them.
  const resourceAuthentication = [requireApiToken(bus, commandTimeoutMs, tokens)];
  app.use(
    resources.mount,
    routerOf(resources, table, resourceAuthentication),
    routerOf(resourcesV3, table, resourceAuthentication),
    routerOf(resourcesV4, table, resourceAuthentication),
  );
  // Images are bodies of their own (the bytes, not JSON): read before the global parser too.
  app.use(routerOf(submissionImages, table, [requireApiToken(bus, commandTimeoutMs, tokens)]));
  app.use(readBodyUpTo(options.bodyLimitBytes));

  app.use(limits.beforeEnrollment);
  app.use(routerOf(enrollment, table));
  app.use(limits.afterEnrollmentRefusal);
  app.use('/admin', requireAdminToken(options.adminToken), adminOrganizationScope(), routerOf(admin, table));

  const organization = express.Router({ mergeParams: true });
  organization.use(requireOwnOrganization);
  organization.use(routerOf(groupsFirstGeneration, table), routerOf(devicesFirstGeneration, table), routerOf(forms, table), routerOf(organizationOneshots, table), routerOf(remoteConnections, table));
  app.use('/organizations/:orgId', requireApiToken(bus, commandTimeoutMs, tokens), organization);
  app.use(destinations.mount, routerOf(destinations, table, [requireApiToken(bus, commandTimeoutMs, tokens)]));
  app.use(routerOf(submissions, table, [requireApiToken(bus, commandTimeoutMs, tokens)]));
  app.use(routerOf(reports, table, [requireApiToken(bus, commandTimeoutMs, tokens)]));
  const ownOrganization = [requireApiToken(bus, commandTimeoutMs, tokens), requireOwnOrganization];
  app.use(routerOf(dispatches, table, [requireApiToken(bus, commandTimeoutMs, tokens)]));
  app.use(organizationDispatches.mount, routerOf(organizationDispatches, table, ownOrganization));
  app.use(devicesSecondGenerationV2.mount, routerOf(devicesSecondGenerationV2, table, ownOrganization));
  app.use(devicesSecondGeneration.mount, routerOf(devicesSecondGeneration, table, ownOrganization));
  app.use(groupsSecondGenerationV2.mount, routerOf(groupsSecondGenerationV2, table, ownOrganization));
  app.use(groupsSecondGeneration.mount, routerOf(groupsSecondGeneration, table, ownOrganization));
  app.use(formLocks.mount, routerOf(formLocks, table, [requireApiToken(bus, commandTimeoutMs, tokens)]));
  app.use(clients.mount, requireApiToken(bus, commandTimeoutMs, tokens), routerOf(clients, table));
  app.use(deviceSide.mount, limits.deviceAddress, requireDeviceSecret(bus, commandTimeoutMs, devices), limits.deviceItself, routerOf(deviceSide, table));

  app.use((req) => {
    throw new AppError('not_found', `No endpoint ${req.method} ${req.path}`);
  });
  app.use(pathBeforeBody(bus, commandTimeoutMs));
  if (options.loadShedding) app.use(pauseRefusedConnections(options.loadShedding.refusedConnectionPauseMs));
  app.use(errorHandler);
  return app;
}

/** `send`, forgetting a deleted device's secret on this gateway as soon as the directory has deleted it. */
function forgettingDeletedDevices(send: SendCommand, devices: DeviceSecretCache): SendCommand {
  return async (req, type, payload, attachment) => {
    const answer = await send(req, type, payload, attachment);
    if (type === directoryCommands.deleteDevice && req.context.orgId != null) {
      devices.forgetDevice(req.context.orgId, (payload as { deviceId: number }).deviceId);
    }
    return answer as never;
  };
}
