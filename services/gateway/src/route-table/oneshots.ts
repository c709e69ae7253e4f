import { z } from 'zod';
import { createBody, dispatchBodyWords, oneshotXml, outstandingXml, updateBody } from '../openapi/push-bodies';
import { badgeView, oneshotCreatedView, outstandingOneshotView } from '../openapi/views';
import { deviceBadge } from '../routes/badge';
import { createOneshot, listDeviceOneshots, listOrganizationOneshots, revokeAllOneshots, revokeOneshot, updateOneshot } from '../routes/oneshots';
import { declareArea, revokedAnswer } from './declare';
import { pathIds } from './path-ids';

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
    {
      method: 'get',
      path: '/oneshots',
      openapi: {
        summary: 'List every outstanding oneshot of the organization',
        description: 'Unpaginated (spec 2.8), streamed as it is read: a failure midway cuts the connection rather than answer a shorter list.',
        answers: { 200: { description: 'XML unless asked for JSON; JSON is a bare array', json: z.array(outstandingOneshotView), xml: oneshotFormsXml } },
      },
      hostile: [{}],
      handler: ({ send }) => listOrganizationOneshots(send),
    },
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
    {
      method: 'get',
      path: '/badge',
      openapi: {
        summary: 'The device\'s badge: its number of outstanding oneshots',
        answers: {
          200: {
            description: 'JSON unless asked for XML. The XML answer is the badge alone, as it always was: `push_token_present` is in the JSON only',
            json: badgeView,
            xml: '`<badge type="integer">N</badge>`',
          },
        },
      },
      handler: ({ send }) => deviceBadge(send),
    },
    {
      method: 'post',
      path: '/oneshots',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Push a oneshot (a pre-filled form) to a device',
        description: dispatchBodyWords,
        body: { json: createBody, xml: oneshotXml },
        answers: {
          202: {
            description: 'The oneshot created: XML unless the suffix or Accept asks for JSON',
            json: z.strictObject({ oneshot_list: z.array(oneshotCreatedView) }),
            xml: '`<oneshot_list><oneshot><id/><namespace/><name/></oneshot></oneshot_list>`',
          },
        },
      },
      hostile: [{ suffix: '.json', json: 'oneshot', xml: 'oneshotXml' }],
      handler: ({ send }) => createOneshot(send),
    },
    {
      method: 'get',
      path: '/oneshots',
      openapi: {
        summary: 'List the device\'s outstanding oneshots',
        answers: { 200: { description: 'XML unless asked for JSON; JSON is a bare array', json: z.array(outstandingOneshotView), xml: `\`<forms type="array">\`${outstandingXml}…\`</forms>\`` } },
      },
      hostile: [{ suffix: '.xml' }],
      handler: ({ send }) => listDeviceOneshots(send),
    },
    {
      method: 'post',
      path: '/oneshots/destroy_all',
      openapi: { summary: 'Revoke every outstanding oneshot of the device', answers: revokedAnswer },
      hostile: [{}],
      handler: ({ send }) => revokeAllOneshots(send),
    },
    {
      method: 'put',
      path: '/oneshots/:oneshotId',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Update an outstanding oneshot (its payload replaced)',
        body: { json: updateBody, xml: oneshotXml },
        answers: { 200: { description: 'The oneshot as it now is (JSON unless asked for XML)', json: outstandingOneshotView, xml: outstandingXml } },
      },
      hostile: [{ suffix: '.json', json: 'oneshotUpdate' }],
      handler: ({ send }) => updateOneshot(send),
    },
    {
      method: 'delete',
      path: '/oneshots/:oneshotId',
      openapi: { summary: 'Revoke an outstanding oneshot', answers: revokedAnswer },
      hostile: [{}],
      handler: ({ send }) => revokeOneshot(send),
    },
  ],
});
