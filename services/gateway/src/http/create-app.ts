import express, { type Express } from 'express';
import type { Bus } from '@formcast/bus';
import { directoryEvents, tokenRevokedPayload } from '@formcast/contracts';
import { AppError, parsePayload, settingsSchema, type Logger } from '@formcast/platform';
import { adminRoutes } from '../routes/admin';
import { badgeRoutes } from '../routes/badge';
import { deviceRoutes } from '../routes/devices';
import { enrollmentRoutes } from '../routes/enrollment';
import { formRoutes } from '../routes/forms';
import { groupRoutes } from '../routes/groups';
import { healthRoutes } from '../routes/health';
import { deviceSideRoutes } from '../routes/device-side';
import { oneshotRoutes, organizationOneshotRoutes } from '../routes/oneshots';
import { resourceRoutes } from '../routes/resources';
import { requireAdminToken, requireApiToken, requireDeviceSecret } from './authenticate';
import { errorHandler } from './error-handler';
import { requireOwnOrganization } from './organization-scope';
import { requestContext } from './request-context';
import { attachmentFetcher, commandSender } from './send-command';
import { TokenCache } from './token-cache';

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
  /** Readiness beyond the bus (stores of co-located services, …). */
  isReady?: () => Promise<boolean>;
}

/** The HTTP surface: each request becomes a command on the bus. */
export function createGatewayApp(options: GatewayOptions): Express {
  const { bus, logger, commandTimeoutMs } = options;
  const send = commandSender(bus, commandTimeoutMs);
  const tokens = new TokenCache({ ttlMs: 5000, maxEntries: 10000 });
  bus.subscribe(gatewayServiceName, directoryEvents.tokenRevoked, async (event) => {
    tokens.forgetOrganization(parsePayload(tokenRevokedPayload, event.payload).orgId);
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestContext(logger));
  app.use(healthRoutes(async () => bus.isReady() && (options.isReady ? await options.isReady() : true)));
  // Resources read their own, larger bodies: mounted before the global parser would refuse them.
  app.use(
    '/api',
    resourceRoutes({
      send,
      fetchWithAttachment: attachmentFetcher(bus, commandTimeoutMs),
      authenticate: requireApiToken(bus, commandTimeoutMs, tokens),
      maxFileBytes: options.resourceMaxBytes ?? settingsSchema.shape.RESOURCE_MAX_BYTES.parse(undefined),
    }),
  );
  app.use(express.raw({ type: () => true, limit: options.bodyLimitBytes }));

  app.use(enrollmentRoutes({ send }));
  app.use('/admin', requireAdminToken(options.adminToken), adminRoutes({ send }));

  const organization = express.Router({ mergeParams: true });
  organization.use(requireOwnOrganization);
  organization.use(groupRoutes({ send }), deviceRoutes({ send }), formRoutes({ send }), organizationOneshotRoutes({ send }));
  app.use('/organizations/:orgId', requireApiToken(bus, commandTimeoutMs, tokens), organization);
  // Before the push routes' mount, so a badge request is authenticated once.
  app.use(badgeRoutes({ send, authenticate: requireApiToken(bus, commandTimeoutMs, tokens) }));
  app.use('/clients/:deviceRef', requireApiToken(bus, commandTimeoutMs, tokens), oneshotRoutes({ send }));
  app.use('/device', requireDeviceSecret(bus, commandTimeoutMs), deviceSideRoutes({ send }));

  app.use((req) => {
    throw new AppError('not_found', `No endpoint ${req.method} ${req.path}`);
  });
  app.use(errorHandler);
  return app;
}
