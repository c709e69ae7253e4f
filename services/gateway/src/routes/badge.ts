import type { RequestHandler } from 'express';
import {
  directoryCommands,
  notifierCommands,
  type BadgeView,
  type DeviceBadgeView,
  type DeviceWithPushTokenPresenceView,
} from '@formcast/contracts';
import { responseFormat } from '../http/response-format';
import { buildXml, xmlInteger } from '@formcast/xml-writing';
import type { SendCommand } from '../http/send-command';

/**
 * `GET /clients/<device identifier or id>/badge{.json|.xml}`: the device's number of
 * outstanding oneshots and whether it has a push token, `{"badge": N, "push_token_present":
 * true|false}` (the default), or `<badge type="integer">N</badge>`. The XML stays the bare
 * badge element it always was: a sibling would need a new root and break the clients that
 * read it. The directory resolves the device in the token's organization (404 otherwise) and
 * tells whether it has a push token (never the token), then the notifier answers its badge.
 */
export const deviceBadge = (send: SendCommand): RequestHandler => async (req, res) => {
  const format = responseFormat(req, 'json');
  const device = await send<DeviceWithPushTokenPresenceView>(req, directoryCommands.findDevice, {
    ref: String(req.params['deviceRef']),
    includePushTokenPresent: true,
  });
  const { badge } = await send<BadgeView>(req, notifierCommands.getBadge, { deviceId: device.id });
  if (format === 'xml') {
    res.type('application/xml').send(buildXml('badge', xmlInteger(badge)));
    return;
  }
  const answer: DeviceBadgeView = { badge, push_token_present: device.push_token_present };
  res.json(answer);
};
