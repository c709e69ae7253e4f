import express, { type Express } from 'express';
import type { Bus } from '@formcast/bus';
import { directoryEvents, tokenRevokedPayload } from '@formcast/contracts';
import { AppError, parsePayload, settingsSchema, type Logger } from '@formcast/platform';
import { adminRoutes } from '../routes/admin';
import { badgeRoutes } from '../routes/badge';
import { bulkDispatchRoutes } from '../routes/bulk-dispatches';
import { destinationRoutes } from '../routes/destinations';
import { deviceRoutes } from '../routes/devices';
import { deviceV2Routes } from '../routes/devices-v2';
import { enrollmentRoutes } from '../routes/enrollment';
import { formRoutes } from '../routes/forms';
import { formV3Routes } from '../routes/forms-v3';
import { groupRoutes } from '../routes/groups';
import { groupV2Routes } from '../routes/groups-v2';
import { healthRoutes } from '../routes/health';
import { openApiRoutes } from '../openapi/docs-routes';
import { deviceSideRoutes } from '../routes/device-side';
import { dispatchRoutes } from '../routes/dispatches';
import { oneshotRoutes, organizationOneshotRoutes } from '../routes/oneshots';
import { remoteConnectionRoutes } from '../routes/remote-connections';
import { resourceRoutes } from '../routes/resources';
import { resourceV3Routes } from '../routes/resources-v3';
import { resourceV4Routes } from '../routes/resources-v4';
import { reportRoutes } from '../routes/reports';
import { submissionImageRoutes } from '../routes/submission-images';
import { submissionRoutes } from '../routes/submissions';
import { requireAdminToken, requireApiToken as requireApiTokenAlone, requireDeviceSecret } from './authenticate';
import { watchRequestBodies } from './body-watch';
import { consoleStatic } from './console-static';
import { errorHandler } from './error-handler';
import { decideFormatSuffix } from './format-suffix';
import { useHttpMetrics, type HttpMetricsOptions } from './http-metrics';
import { useHttpTracing } from './http-tracing';
import { defaultHttpTimeouts, type HttpTimeouts } from './http-timeouts';
import { readBodyUpTo } from './limited-body';
import { requireOwnOrganization } from './organization-scope';
import type { LoadShedder } from './load-shedding';
import { pathBeforeBody } from './path-before-body';
import { GatewayRateLimits } from './rate-limit';
import { requestContext } from './request-context';
import { attachmentFetcher, commandSender } from './send-command';
import { TokenCache } from './token-cache';
import { refuseUnwritableUrl } from './unwritable-url';

/** The gateway's name on the bus: its event queue (token revocations). */
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
  const send = commandSender(bus, commandTimeoutMs);
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
  app.use(healthRoutes(async () => bus.isReady() && (options.isReady ? await options.isReady() : true)));
  app.use(openApiRoutes());
  app.use(refuseUnwritableUrl);
  app.use('/console', consoleStatic());
  // Before any route, its authentication or its body: a `.JSON` is `.json`, a `.foo` is 404 here.
  app.use(decideFormatSuffix);
  // Resources read their own, larger bodies: mounted before the global parser would refuse them.
  const resourceDeps = {
    send,
    fetchWithAttachment: attachmentFetcher(bus, commandTimeoutMs),
    authenticate: requireApiToken(bus, commandTimeoutMs, tokens),
    maxFileBytes: options.resourceMaxBytes ?? settingsSchema.shape.RESOURCE_MAX_BYTES.parse(undefined),
  };
  app.use('/api', resourceRoutes(resourceDeps), resourceV3Routes(resourceDeps), resourceV4Routes(resourceDeps));
  // Images are bodies of their own (the bytes, not JSON): read before the global parser too.
  app.use(
    submissionImageRoutes({
      ...resourceDeps,
      maxImageBytes: options.submissionImageMaxBytes ?? settingsSchema.shape.SUBMISSION_IMAGE_MAX_BYTES.parse(undefined),
    }),
  );
  app.use(readBodyUpTo(options.bodyLimitBytes));

  app.use(limits.beforeEnrollment);
  app.use(enrollmentRoutes({ send }));
  app.use(limits.afterEnrollmentRefusal);
  app.use('/admin', requireAdminToken(options.adminToken), adminRoutes({ send, deadLetters: bus }));

  const organization = express.Router({ mergeParams: true });
  organization.use(requireOwnOrganization);
  organization.use(groupRoutes({ send }), deviceRoutes({ send }), formRoutes({ send }), organizationOneshotRoutes({ send }), remoteConnectionRoutes({ send }));
  app.use('/organizations/:orgId', requireApiToken(bus, commandTimeoutMs, tokens), organization);
  // Before the push routes' mount, so a badge request is authenticated once.
  app.use(badgeRoutes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(destinationRoutes({ send, fetchWithAttachment: resourceDeps.fetchWithAttachment, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(submissionRoutes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(reportRoutes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(bulkDispatchRoutes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(dispatchRoutes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(deviceV2Routes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(groupV2Routes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use(formV3Routes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use('/clients/:deviceRef', requireApiToken(bus, commandTimeoutMs, tokens), oneshotRoutes({ send }));
  app.use('/device', limits.deviceAddress, requireDeviceSecret(bus, commandTimeoutMs), limits.deviceItself, deviceSideRoutes({ send }));

  app.use((req) => {
    throw new AppError('not_found', `No endpoint ${req.method} ${req.path}`);
  });
  app.use(pathBeforeBody(bus, commandTimeoutMs));
  app.use(errorHandler);
  return app;
}
