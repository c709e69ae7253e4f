import { z } from 'zod';
import {
  createDispatchesPayload,
  createOneshotPayload,
  getDispatchPayload,
  listDeviceDispatchesPayload,
  updateOneshotPayload,
} from '@formcast/contracts';
import { bodyOf, fieldOf, type JsonSchema } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { authorsAnswer, authorsQuery, badgeView, bulkDispatchResult, dispatchView, oneshotCreatedView, outstandingOneshotView } from './views';

/** The push API of every generation: oneshots (v1), dispatches (v2, v3), bulk dispatch, the badge. */

const pushNamespace = 'http://mobileforms.devicemagic.com/xforms';

/** Unknown keys are refused (400 naming them): a misspelt `scheduled_at` must never push at once. */
export const createBody: JsonSchema = { ...bodyOf(createOneshotPayload, ['deviceRef', 'fromXml']), additionalProperties: false };
export const updateBody: JsonSchema = (() => {
  const body = bodyOf(updateOneshotPayload, ['deviceRef', 'oneshotId', 'fromXml']);
  const formNamespace = { ...fieldOf(createOneshotPayload, 'form_namespace'), description: 'may be sent again, but must be the dispatch\'s own' };
  return { ...body, properties: { form_namespace: formNamespace, ...(body['properties'] as object) }, additionalProperties: false };
})();

export const oneshotXml = `\`<oneshot xmlns="http://www.w3.org/2002/xforms" xmlns:dm="${pushNamespace}"><dm:form_namespace/><dm:form_name/><dm:form_description/><dm:scheduled_at/><dm:location/><dm:address/><dm:geofence_radius/><question>value</question>…</oneshot>\`: the fields in the push namespace (any prefix), the payload's questions outside it`;

export const dispatchBodyWords =
  '`payload` is required (it may be `{}`) and is checked against the template\'s questions. `scheduled_at` in the future holds the dispatch back until then.';

export const outstandingXml = '`<form><description/><device-id type="integer"/><id type="integer"/><name/><namespace/><organization-id type="integer"/></form>`';
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

const listDeviceDispatches: OperationSpec = {
  summary: 'The device\'s dispatches not yet ended (scheduled ones included), oldest first',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  query: page,
  answers: { 200: { description: 'A page', json: z.strictObject({ dispatches: z.array(dispatchView) }), xml: dispatchesXml, headers: pageHeaders } },
  errors: [400, 404],
};

const destroyAll: OperationSpec = {
  summary: 'Revoke every dispatch of the device not yet ended',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  answers: { 200: { description: 'Revoked (empty body)' } },
  errors: [404],
};

const updateDispatch: OperationSpec = {
  summary: 'Update a dispatch (payload replaced; name, description and the dispatch fields when given)',
  description: 'A different `scheduled_at` once the dispatch is delivered is a 400.',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  body: { json: updateBody, xml: oneshotXml },
  answers: { 202: { description: 'The dispatch as it now is', json: z.strictObject({ dispatch: dispatchView }), xml: dispatchXml } },
  errors: [400, 404],
};

const revokeDispatch: OperationSpec = {
  summary: 'Revoke a dispatch of the device',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  answers: { 200: { description: 'Revoked (empty body)' } },
  errors: [404],
};

const listOrganizationDispatches: OperationSpec = {
  summary: 'The organization\'s dispatches not yet ended (scheduled ones included), oldest first',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  query: page,
  answers: { 200: { description: 'A page', json: z.strictObject({ dispatches: z.array(dispatchView) }), xml: dispatchesXml, headers: pageHeaders } },
  errors: [400],
};

const createDispatch: OperationSpec = {
  summary: 'Create a dispatch on the device',
  description: dispatchBodyWords,
  auth: 'apiToken',
  suffixes: '.json|.xml',
  body: { json: createBody, xml: oneshotXml },
  answers: { 202: { description: 'The dispatch (JSON unless the suffix or Accept asks for XML)', json: z.strictObject({ dispatch: dispatchView }), xml: dispatchXml } },
  errors: [400, 404],
};

const usersGone: OperationSpec = {
  summary: 'No web users: always 404',
  description: 'Formcast has no web users, only devices: every method answers 404 saying so.',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  answers: {},
  errors: [404],
};
const usersBelowGone: OperationSpec = { ...usersGone, suffixes: 'none' };

const bulkItem: JsonSchema = {
  ...createBody,
  properties: { device: { type: 'string', description: 'the device\'s identifier' }, ...(createBody['properties'] as object) },
  required: ['device', ...((createBody['required'] as string[]) ?? [])],
  description: 'one dispatch: a create\'s fields and its device; checked by the push service, alone',
};

export const pushPaths: PathTable = {
  '/api/v3/dispatch_authors': {
    get: {
      summary: 'The possible authors: the organization\'s approved devices',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      query: authorsQuery,
      answers: {
        200: authorsAnswer,
      },
      errors: [400],
    },
  },
  '/api/v3/devices/{deviceRef}/dispatches': {
    get: listDeviceDispatches,
    post: createDispatch,
  },
  '/api/v2/devices/{deviceRef}/dispatches': {
    get: { ...listDeviceDispatches, summary: `${listDeviceDispatches.summary} (second generation, as pydevice 0.3.3 calls it: the v3 list)` },
    post: { ...createDispatch, summary: 'Create a dispatch on the device (second generation: the v3 create)' },
  },
  '/api/v3/devices/{deviceRef}/dispatches/destroy_all': { post: destroyAll },
  '/api/v2/devices/{deviceRef}/dispatches/destroy_all': { post: { ...destroyAll, summary: `${destroyAll.summary} (second generation, as pydevice 0.3.3 calls it)` } },
  '/api/v3/devices/{deviceRef}/dispatches/{dispatchId}': {
    get: {
      summary: 'One dispatch of the device, in any state (another device\'s is 404)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      query: includeInputsQuery,
      answers: { 200: { description: 'The dispatch, bare (`{"id":…}`), as the organization-wide show', json: dispatchView, xml: dispatchXml } },
      errors: [400, 404],
    },
    patch: updateDispatch,
    delete: revokeDispatch,
  },
  '/api/v2/devices/{deviceRef}/dispatches/{dispatchId}': {
    patch: { ...updateDispatch, summary: `${updateDispatch.summary} (second generation, as pydevice 0.3.3 calls it)` },
    delete: { ...revokeDispatch, summary: `${revokeDispatch.summary} (second generation, as pydevice 0.3.3 calls it)` },
  },
  '/api/v3/organization_dispatches': { get: listOrganizationDispatches },
  '/api/v2/organizations/{orgId}/dispatches': {
    get: { ...listOrganizationDispatches, summary: `${listOrganizationDispatches.summary} (second generation, as pydevice 0.3.3 calls it)`, errors: [400, 404] },
  },
  '/api/v3/dispatches/{dispatchId}': {
    get: {
      summary: 'One dispatch, in any state',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      query: includeInputsQuery,
      answers: { 200: { description: 'The dispatch, bare (`{"id":…}`), as v3/dispatch.md shows it', json: dispatchView, xml: dispatchXml } },
      errors: [400, 404],
    },
    delete: {
      summary: 'Revoke a dispatch by its id',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'Revoked (empty body)' } },
      errors: [404],
    },
  },
  '/api/v3/dispatches/bulk': {
    post: {
      summary: 'Create up to 1,000 dispatches in one request (a Formcast extension)',
      description: 'Each item is created or refused alone; the answer has one result per item, in order. Idempotency-Key is honoured.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      body: {
        json: (() => {
          const body = bodyOf(createDispatchesPayload, ['fromXml']);
          const dispatches = (body['properties'] as Record<string, JsonSchema>)['dispatches']!;
          return { ...body, properties: { dispatches: { ...dispatches, items: bulkItem } }, additionalProperties: false };
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
  },
  '/api/v3/users': { get: usersGone, post: usersGone, put: usersGone, patch: usersGone, delete: usersGone },
  '/api/v3/users/{rest}': { get: usersBelowGone, post: usersBelowGone, put: usersBelowGone, patch: usersBelowGone, delete: usersBelowGone },
};
