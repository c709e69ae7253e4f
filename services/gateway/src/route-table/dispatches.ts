import { z } from 'zod';
import { createDispatchesPayload, getDispatchPayload, listDeviceDispatchesPayload } from '@formcast/contracts';
import { bodyOf, fieldOf, type JsonSchema } from '../openapi/json-schema';
import { answerOf, pageQuery } from '../openapi/operation-parts';
import { createBody, dispatchBodyWords, oneshotXml, updateBody } from '../openapi/push-bodies';
import { bulkDispatchResult, dispatchView } from '../openapi/views';
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
import { possibleAuthors } from './authors';
import type { HostileCase, PathId } from './declaration';
import { declareArea, type RouteSpec } from './declare';
import { read, revocation, write, type Wiring } from './route-kinds';
import { pathIds } from './path-ids';

const dispatchXml = '`<dispatch><id type="integer"/><name/><namespace/><version/><organization-id/><device-id/><description/><parent-form-id/><parent-form-version/><created-at type="dateTime"/><updated-at/><scheduled-at/><location/><address/><geofence-radius/><author-identifier/><author-type/>[<inputs>…</inputs>]</dispatch>`';
const dispatchesXml = '`<dispatches type="array"><dispatch>…</dispatch>…</dispatches>`';

const page = pageQuery(listDeviceDispatchesPayload, 'items', 'Dispatches per page');
const pageOfDispatches = { ...answerOf('A page', { dispatches: z.array(dispatchView) }, dispatchesXml), headers: { 'X-Total-Count': 'How many dispatches there are in all' } };

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

const listOfDevice = read('/api/v3/devices/:deviceRef/dispatches', 'The device\'s dispatches not yet ended (scheduled ones included), oldest first', pageOfDispatches, ({ send }) => listDeviceDispatches(send), {
  openapi: { query: page, errors: [400, 404] },
  hostile: [{ suffix: '.xml' }],
});

const create = write('post', '/api/v3/devices/:deviceRef/dispatches', [{ suffix: '.json', json: 'dispatch', xml: 'oneshotXml' }], ({ send }) => createDispatch(send), {
  summary: 'Create a dispatch on the device',
  description: dispatchBodyWords,
  body: { json: createBody, xml: oneshotXml },
  answers: { 202: answerOf('The dispatch (JSON unless the suffix or Accept asks for XML)', { dispatch: dispatchView }, dispatchXml) },
});

const destroyAll = revocation('post', '/api/v3/devices/:deviceRef/dispatches/destroy_all', 'Revoke every dispatch of the device not yet ended', ({ send }) => revokeDeviceDispatches(send));

const update = write('patch', '/api/v3/devices/:deviceRef/dispatches/:dispatchId', [{ suffix: '.json', json: 'dispatchUpdate', xml: 'oneshotXml' }], ({ send }) => updateDispatch(send), {
  summary: 'Update a dispatch (payload replaced; name, description and the dispatch fields when given)',
  description: 'A different `scheduled_at` once the dispatch is delivered is a 400.',
  body: { json: updateBody, xml: oneshotXml },
  answers: { 202: answerOf('The dispatch as it now is', { dispatch: dispatchView }, dispatchXml) },
});

const revoke = revocation('delete', '/api/v3/devices/:deviceRef/dispatches/:dispatchId', 'Revoke a dispatch of the device', ({ send }) => revokeDeviceDispatch(send));

const listOfOrganization = read('/api/v3/organization_dispatches', 'The organization\'s dispatches not yet ended (scheduled ones included), oldest first', pageOfDispatches, ({ send }) => listOrganizationDispatches(send), {
  openapi: { query: page, errors: [400] },
});

/**
 * One dispatch in any state, bare (`{"id":…}`), with its payload when asked. Read by its
 * handler, which answers 404 itself: not the outstanding dispatch's lookup (`ids`).
 */
const oneDispatch = (path: string, summary: string, shownAs: string, handler: RouteSpec['handler'], ids: PathId[]): RouteSpec =>
  read(path, summary, { description: `The dispatch, bare (\`{"id":…}\`), ${shownAs}`, json: dispatchView, xml: dispatchXml }, handler, {
    pathIds: ids,
    openapi: { query: includeInputsQuery, errors: [400, 404] },
    hostile: [{ suffix: '.json', query: 'include_inputs=true' }],
  });

const usersGoneOperation: RouteSpec['openapi'] = {
  summary: 'No web users: always 404',
  description: 'Formcast has no web users, only devices: every method answers 404 saying so.',
  answers: {},
  errors: [404],
};

/** Formcast has no web users: any method on `path` is 404 saying so. */
const usersGone = (path: string, hostile: HostileCase, wiring: Wiring = {}): RouteSpec => ({ method: 'all', path, openapi: usersGoneOperation, hostile: [hostile], handler: () => noWebUsers(), ...wiring });

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
    write('post', '/api/v3/dispatches/bulk', [{ suffix: '.json', json: 'bulk', xml: 'bulkXml' }], ({ send }) => createDispatches(send), {
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
        200: answerOf(
          'One result per item: `{"status":202,"id","namespace","name"}`, or the status and error the item would get alone',
          { results: z.array(bulkDispatchResult) },
          '`<results type="array"><result><status type="integer">202</status><id/><namespace/><name/></result>…</results>` (or `<status>` and `<error><code/><message/></error>`)',
        ),
      },
      errors: [400, 413],
    }),
    possibleAuthors('/api/v3/dispatch_authors', 'The possible authors: the organization\'s approved devices'),
    listOfDevice,
    secondGeneration(listOfDevice, `${listOfDevice.openapi.summary} (second generation, as pydevice 0.3.3 calls it: the v3 list)`, [{ suffix: '.json' }]),
    create,
    secondGeneration(create, 'Create a dispatch on the device (second generation: the v3 create)', [{ suffix: '.xml', json: 'dispatch', xml: 'oneshotXml' }]),
    destroyAll,
    secondGeneration(destroyAll, `${destroyAll.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, [{ suffix: '.json' }]),
    oneDispatch('/api/v3/devices/:deviceRef/dispatches/:dispatchId', 'One dispatch of the device, in any state (another device\'s is 404)', 'as the organization-wide show', ({ send }) => showDeviceDispatch(send), [
      pathIds.deviceRef,
    ]),
    update,
    secondGeneration(update, `${update.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, [{ suffix: '.json', json: 'dispatchUpdate', xml: 'oneshotXml' }]),
    revoke,
    secondGeneration(revoke, `${revoke.openapi.summary} (second generation, as pydevice 0.3.3 calls it)`, [{ suffix: '.json' }]),
    listOfOrganization,
    /** No device: the organization's dispatch, read by the handler (no outstanding lookup). */
    oneDispatch('/api/v3/dispatches/:dispatchId', 'One dispatch, in any state', 'as v3/dispatch.md shows it', ({ send }) => showDispatch(send), []),
    /** No device: the organization's dispatch, revoked by the handler (no outstanding lookup). */
    revocation('delete', '/api/v3/dispatches/:dispatchId', 'Revoke a dispatch by its id', ({ send }) => revokeDispatch(send), { pathIds: [] }),
    usersGone('/api/v3/users', { method: 'get', suffix: '.json' }),
    usersGone('/api/v3/users/*rest', { method: 'get', path: '/api/v3/users/1/dispatches.json' }, { suffixes: 'none' }),
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
