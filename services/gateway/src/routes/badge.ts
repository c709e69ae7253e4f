import { Router, type RequestHandler } from 'express';
import { directoryCommands, notifierCommands, type BadgeView, type DeviceView } from '@formcast/contracts';
import { responseFormat } from '../http/response-format';
import { buildXml, xmlInteger } from '../xml/build-xml';
import type { RouteDeps } from './route-deps';

export interface BadgeRouteDeps extends RouteDeps {
  /** The organization API token check (`requireApiToken`), run for this route only. */
  authenticate: RequestHandler;
}

/**
 * `GET /clients/<device identifier or id>/badge{.json|.xml}`: the device's number of
 * outstanding oneshots, `{"badge": N}` (the default) or `<badge type="integer">N</badge>`.
 * The directory resolves the device in the token's organization (404 otherwise), then
 * the notifier answers its badge.
 */
export function badgeRoutes({ send, authenticate }: BadgeRouteDeps): Router {
  const router = Router();
  router.get('/clients/:deviceRef/badge{.:format}', authenticate, async (req, res) => {
    const format = responseFormat(req, 'json');
    const device = await send<DeviceView>(req, directoryCommands.findDevice, { ref: String(req.params['deviceRef']) });
    const { badge } = await send<BadgeView>(req, notifierCommands.getBadge, { deviceId: device.id });
    if (format === 'xml') res.type('application/xml').send(buildXml('badge', xmlInteger(badge)));
    else res.json({ badge });
  });
  return router;
}
