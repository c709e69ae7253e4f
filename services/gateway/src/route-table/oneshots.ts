import { z } from 'zod';
import { answerOf } from '../openapi/operation-parts';
import { createBody, dispatchBodyWords, oneshotXml, outstandingXml, updateBody } from '../openapi/push-bodies';
import { badgeView, oneshotCreatedView, outstandingOneshotView } from '../openapi/views';
import { deviceBadge } from '../routes/badge';
import { createOneshot, listDeviceOneshots, listOrganizationOneshots, revokeAllOneshots, revokeOneshot, updateOneshot } from '../routes/oneshots';
import { declareArea } from './declare';
import { read, revocation, write } from './route-kinds';

const oneshotFormsXml = '`<forms type="array"><form><description/><device-id type="integer"/><id type="integer"/><name/><namespace/><organization-id type="integer"/></form>…</forms>`';

/**
 * `GET /organizations/<org>/oneshots`: every outstanding oneshot of the organization, unpaged
 * (spec 2.8) and streamed; or, with `page` / `per_page`, that page alone. Authenticated and
 * scoped by the mount.
 */
export const organizationOneshots = declareArea({
  name: 'oneshots',
  mount: '/organizations/:orgId',
  tag: 'Organization (first generation)',
  routes: [
    read(
      '/oneshots',
      'List every outstanding oneshot of the organization',
      { description: 'XML unless asked for JSON; JSON is a bare array', json: z.array(outstandingOneshotView), xml: oneshotFormsXml },
      ({ send }) => listOrganizationOneshots(send),
      {
        openapi: { description: 'Unpaginated (spec 2.8), streamed as it is read: a failure midway cuts the connection rather than answer a shorter list.' },
        hostile: [{}],
      },
    ),
  ],
});

/**
 * Push API, spec 4.4: `/clients/<device identifier or id>/oneshots…`, and the device's badge.
 * Authenticated by the mount; the device is resolved in the token's organization.
 */
export const clients = declareArea({
  name: 'oneshots',
  mount: '/clients/:deviceRef',
  tag: 'Push',
  routes: [
    read(
      '/badge',
      'The device\'s badge: its number of outstanding oneshots',
      {
        description: 'JSON unless asked for XML. The XML answer is the badge alone, as it always was: `push_token_present` is in the JSON only',
        json: badgeView,
        xml: '`<badge type="integer">N</badge>`',
      },
      ({ send }) => deviceBadge(send),
    ),
    write('post', '/oneshots', [{ suffix: '.json', json: 'oneshot', xml: 'oneshotXml' }], ({ send }) => createOneshot(send), {
      summary: 'Push a oneshot (a pre-filled form) to a device',
      description: dispatchBodyWords,
      body: { json: createBody, xml: oneshotXml },
      answers: {
        202: answerOf('The oneshot created: XML unless the suffix or Accept asks for JSON', { oneshot_list: z.array(oneshotCreatedView) }, '`<oneshot_list><oneshot><id/><namespace/><name/></oneshot></oneshot_list>`'),
      },
    }),
    read(
      '/oneshots',
      'List the device\'s outstanding oneshots',
      { description: 'XML unless asked for JSON; JSON is a bare array', json: z.array(outstandingOneshotView), xml: `\`<forms type="array">\`${outstandingXml}…\`</forms>\`` },
      ({ send }) => listDeviceOneshots(send),
      { hostile: [{ suffix: '.xml' }] },
    ),
    revocation('post', '/oneshots/destroy_all', 'Revoke every outstanding oneshot of the device', ({ send }) => revokeAllOneshots(send), { hostile: [{}] }),
    write('put', '/oneshots/:oneshotId', [{ suffix: '.json', json: 'oneshotUpdate' }], ({ send }) => updateOneshot(send), {
      summary: 'Update an outstanding oneshot (its payload replaced)',
      body: { json: updateBody, xml: oneshotXml },
      answers: { 200: { description: 'The oneshot as it now is (JSON unless asked for XML)', json: outstandingOneshotView, xml: outstandingXml } },
    }),
    revocation('delete', '/oneshots/:oneshotId', 'Revoke an outstanding oneshot', ({ send }) => revokeOneshot(send), { hostile: [{}] }),
  ],
});
