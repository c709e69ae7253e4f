import { z } from 'zod';
import { createDispatchesPayload, getDispatchPayload, listDeviceDispatchesPayload } from '@formcast/contracts';
import { bodyOf, fieldOf, type JsonSchema } from '../openapi/json-schema';
import { createBody, dispatchBodyWords, oneshotXml, updateBody } from '../openapi/push-bodies';
import { authorsAnswer, authorsQuery, bulkDispatchResult, dispatchView } from '../openapi/views';
import { createDispatches } from '../routes/bulk-dispatches';
import {
  createDispatch,
  listDeviceDispatches,
  listOrganizationDispatches,
  noWebUsers,
  revokeDeviceDispatch,
  revokeDeviceDispatches,
  revokeDispatch,
  showDeviceDispatch,
  showDispatch,
  updateDispatch,
} from '../routes/dispatches';
import { authorsRoute } from '../routes/submissions';
import type { RouteDeclaration } from './declaration';
import { declareArea, revokedAnswer, type RouteSpec } from './declare';
import { pathIds } from './path-ids';

const dispatchXml = '`<dispatch><id type="integer"/><name/><namespace/><version/><organization-id/><device-id/><description/><parent-form-id/><parent-form-version/><created-at type="dateTime"/><updated-at/><scheduled-at/><location/><address/><geofence-radius/><author-identifier/><author-type/>[<inputs>…</inputs>]</dispatch>`';
const dispatchesXml = '`<dispatches type="array"><dispatch>…</dispatch>…</dispatches>`';

const page = {
  page: { schema: fieldOf(listDeviceDispatchesPayload, 'page'), description: 'The page, from 1' },
  items: { schema: fieldOf(listDeviceDispatchesPayload, 'items'), description: 'Dispatches per page' },
};
const pageHeaders = { 'X-Total-Count': 'How many dispatches there are in all' };

const includeInputsQuery = {
  include_inputs: { schema: { ...fieldOf(getDispatchPayload, 'include_inputs'), type: 'string', enum: ['true', 'false', '1', '0'] }, description: 'Add its payload as `inputs`' },
};

const bulkItem: JsonSchema = {
  ...createBody,
  properties: { device: { type: 'string', description: 'the device\'s identifier' }, ...(createBody['properties'] as object) },
  required: ['device', ...((createBody['required'] as string[]) ?? [])],
  description: 'one dispatch: a create\'s fields and its device; checked by the push service, alone',
};

/** The v2 paths are pydevice 0.3.3's (a real client of the second generation): the v3 handlers, said so in the summary. */
const secondGeneration = (route: RouteSpec, summary: string, hostile: RouteSpec['hostile']): RouteSpec => ({
  ...route,
  path: route.path.replace('/api/v3/', '/api/v2/'),
  openapi: { ...route.openapi, summary },
  hostile,
});

const listOfDevice: RouteSpec = {
  method: 'get',
  path: '/api/v3/devices/:deviceRef/dispatches',
  openapi: {
    summary: 'The device\'s dispatches not yet ended (scheduled ones included), oldest first',
    query: page,
    answers: { 200: { description: 'A page', json: z.strictObject({ dispatches: z.array(dispatchView) }), xml: dispatchesXml, headers: pageHeaders } },
    errors: [400, 404],
  },
  hostile: [{ suffix: '.xml' }],
  handler: ({ send }) => listDeviceDispatches(send),
};

const create: RouteSpec = {
  method: 'post',
  path: '/api/v3/devices/:deviceRef/dispatches',
  body: 'BODY_LIMIT_BYTES',
  openapi: {
    summary: 'Create a dispatch on the device',
    description: dispatchBodyWords,
    body: { json: createBody, xml: oneshotXml },
    answers: { 202: { description: 'The dispatch (JSON unless the suffix or Accept asks for XML)', json: z.strictObject({ dispatch: dispatchView }), xml: dispatchXml } },
  },
  hostile: [{ suffix: '.json', json: 'dispatch', xml: 'oneshotXml' }],
  handler: ({ send }) => createDispatch(send),
};

const destroyAll: RouteSpec = {
  method: 'post',
  path: '/api/v3/devices/:deviceRef/dispatches/destroy_all',
  openapi: { summary: 'Revoke every dispatch of the device not yet ended', answers: revokedAnswer },
  handler: ({ send }) => revokeDeviceDispatches(send),
};

const update: RouteSpec = {
  method: 'patch',
  path: '/api/v3/devices/:deviceRef/dispatches/:dispatchId',
  body: 'BODY_LIMIT_BYTES',
  openapi: {
    summary: 'Update a dispatch (payload replaced; name, description and the dispatch fields when given)',
    description: 'A different `scheduled_at` once the dispatch is delivered is a 400.',
    body: { json: updateBody, xml: oneshotXml },
    answers: { 202: { description: 'The dispatch as it now is', json: z.strictObject({ dispatch: dispatchView }), xml: dispatchXml } },
  },
  hostile: [{ suffix: '.json', json: 'dispatchUpdate', xml: 'oneshotXml' }],
  handler: ({ send }) => updateDispatch(send),
};

const revoke: RouteSpec = {
  method: 'delete',
  path: '/api/v3/devices/:deviceRef/dispatches/:dispatchId',
  openapi: { summary: 'Revoke a dispatch of the device', answers: revokedAnswer },
  handler: ({ send }) => revokeDeviceDispatch(send),
};

const listOfOrganization: RouteSpec = {
  method: 'get',
  path: '/api/v3/organization_dispatches',
  openapi: {
    summary: 'The organization\'s dispatches not yet ended (scheduled ones included), oldest first',
    query: page,
    answers: { 200: { description: 'A page', json: z.strictObject({ dispatches: z.array(dispatchView) }), xml: dispatchesXml, headers: pageHeaders } },
    errors: [400],
  },
  handler: ({ send }) => listOrganizationDispatches(send),
};

const usersGone: RouteDeclaration['openapi'] = {
  summary: 'No web users: always 404',
  description: 'Formcast has no web users, only devices: every method answers 404 saying so.',
  answers: {},
  errors: [404],
};

/**
 * The later generations of the push API: v3 dispatches and the v2 paths, bulk dispatch (a
 * Formcast extension) and the possible authors. Each route authenticates with the
 * organization's API token (create-app.ts mounts them behind it). Formcast has no web
 * users: `/api/v3/users/…` is 404 saying so.
 */
export const dispatches = declareArea({
  name: 'dispatches',
  mount: '',
  tag: 'Push',
  routes: [
    {
      method: 'post',
      path: '/api/v3/dispatches/bulk',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Create up to 1,000 dispatches in one request (a Formcast extension)',
        description: 'Each item is created or refused alone; the answer has one result per item, in order. Idempotency-Key is honoured.',
        body: {
          json: (() => {
            const body = bodyOf(createDispatchesPayload, ['fromXml']);
            const items = (body['properties'] as Record<string, JsonSchema>)['dispatches']!;
            return { ...body, properties: { dispatches: { ...items, items: bulkItem } }, additionalProperties: false };
          })(),
          xml: '`<dispatches type="array"><dispatch><device/><form_namespace/><form_name/><payload><question>value</question>…</payload>…</dispatch>…</dispatches>`',
        },
        answers: {
          200: {
            description: 'One result per item: `{"status":202,"id","namespace","name"}`, or the status and error the item would get alone',
            json: z.strictObject({ results: z.array(bulkDispatchResult) }),
            xml: '`<results type="array"><result><status type="integer">202</status><id/><namespace/><name/></result>…</results>` (or `<status>` and `<error><code/><message/></error>`)',
          },
        },
        errors: [400, 413],
      },
      hostile: [{ suffix: '.json', json: 'bulk', xml: 'bulkXml' }],
      handler: ({ send }) => createDispatches(send),
    },
    {
      method: 'get',
      path: '/api/v3/dispatch_authors',
      openapi: { summary: 'The possible authors: the organization\'s approved devices', query: authorsQuery, answers: { 200: authorsAnswer }, errors: [400] },
      hostile: [{ suffix: '.xml' }],
      handler: ({ send }) => authorsRoute(send),
    },
    listOfDevice,
    secondGeneration(listOfDevice, `${listOfDevice.openapi.summary} (second generation, as pydevice 0.3.3 calls it: the v3 list)`, [{ suffix: '.json' }]),
    create,
    secondGeneration(create, 'Create a dispatch on the device (second generation: the v3 create)', [{ suffix: '.xml', json: 'dispatch', xml: 'oneshotXml' }]),
    destroyAll,
    secondGeneration(destroyAll, `${destroyAll.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, [{ suffix: '.json' }]),
    {
      method: 'get',
      path: '/api/v3/devices/:deviceRef/dispatches/:dispatchId',
      /** In any state: not the outstanding dispatch's lookup (the handler answers 404 itself). */
      pathIds: [pathIds.deviceRef],
      openapi: {
        summary: 'One dispatch of the device, in any state (another device\'s is 404)',
        query: includeInputsQuery,
        answers: { 200: { description: 'The dispatch, bare (`{"id":…}`), as the organization-wide show', json: dispatchView, xml: dispatchXml } },
        errors: [400, 404],
      },
      hostile: [{ suffix: '.json', query: 'include_inputs=true' }],
      handler: ({ send }) => showDeviceDispatch(send),
    },
    update,
    secondGeneration(update, `${update.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, [{ suffix: '.json', json: 'dispatchUpdate', xml: 'oneshotXml' }]),
    revoke,
    secondGeneration(revoke, `${revoke.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, [{ suffix: '.json' }]),
    listOfOrganization,
    {
      method: 'get',
      path: '/api/v3/dispatches/:dispatchId',
      /** No device: the organization's dispatch, read by the handler (no outstanding lookup). */
      pathIds: [],
      openapi: {
        summary: 'One dispatch, in any state',
        query: includeInputsQuery,
        answers: { 200: { description: 'The dispatch, bare (`{"id":…}`), as v3/dispatch.md shows it', json: dispatchView, xml: dispatchXml } },
        errors: [400, 404],
      },
      hostile: [{ suffix: '.json', query: 'include_inputs=true' }],
      handler: ({ send }) => showDispatch(send),
    },
    {
      method: 'delete',
      path: '/api/v3/dispatches/:dispatchId',
      /** No device: the organization's dispatch, read by the handler (no outstanding lookup). */
      pathIds: [],
      openapi: { summary: 'Revoke a dispatch by its id', answers: revokedAnswer },
      handler: ({ send }) => revokeDispatch(send),
    },
    { method: 'all', path: '/api/v3/users', openapi: usersGone, hostile: [{ method: 'get', suffix: '.json' }], handler: () => noWebUsers() },
    {
      method: 'all',
      path: '/api/v3/users/*rest',
      suffixes: 'none',
      openapi: usersGone,
      hostile: [{ method: 'get', path: '/api/v3/users/1/dispatches.json' }],
      handler: () => noWebUsers(),
    },
  ],
});

/** The organization's dispatches under /api/v2/organizations/<org> (pydevice 0.3.3's path): the organization's own only. */
export const organizationDispatches = declareArea({
  name: 'dispatches',
  mount: '/api/v2/organizations/:orgId',
  tag: 'Push',
  routes: [
    {
      ...listOfOrganization,
      path: '/dispatches',
      openapi: { ...listOfOrganization.openapi, summary: `${listOfOrganization.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, errors: [400, 404] },
      hostile: [{ suffix: '.xml' }],
    },
  ],
});
