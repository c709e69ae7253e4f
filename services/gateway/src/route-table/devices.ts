import { z } from 'zod';
import { updateDevicePayload } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from '../openapi/json-schema';
import { deviceV2View, deviceView } from '../openapi/views';
import { approveDevice, deleteDevice, firstGeneration, listDevices, secondGeneration, showDevice, updateDevice } from '../routes/devices';
import { declareArea, deletedAnswer, type RouteSpec } from './declare';
import { pathIds } from './path-ids';

const { shape: devicePatch } = updateDevicePayload;
/** `{"device": {…}}` or `<device>`: the fields a device update changes; absent ones stay. */
const devicePatchBody = {
  json: {
    type: 'object',
    properties: {
      device: {
        type: 'object',
        properties: {
          owner: schemaOf(devicePatch.owner.unwrap(), 'input'),
          description: schemaOf(devicePatch.description.unwrap(), 'input'),
          groups: {
            description: 'replaces the device\'s groups: comma-separated names, or a list of names or of {"name"}',
            oneOf: [
              { type: 'string' },
              { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }] } },
            ],
          },
          custom_attributes: {
            type: 'object',
            additionalProperties: { type: 'string', maxLength: 255 },
            maxProperties: 50,
            description: 'name (1–64 characters) → text; replaces the device\'s set',
          },
        },
      },
    },
    required: ['device'],
  } satisfies JsonSchema,
  xml: '`<device><owner/><description/><groups>Default,Field</groups><custom_attributes type="array"><custom_attribute><key/><value/></custom_attribute>…</custom_attributes></device>` (groups also as `<groups type="array"><name/>…`)',
};

const devicesV1Xml = '`<devices type="array"><device><id/><identifier/><organization-id/><owner/><description/><pending-approval/><groups/><custom-attributes/></device>…</devices>` (dashed names)';
const deviceV1Xml = '`<device>` with the dashed elements of the list';

const deviceV2Xml =
  '`<device><id/><identifier/><os_version/><app_identifier/><app_version/><organization_id/><owner/><description/><pending_approval/><groups type="array"><name/>…</groups><custom_attributes type="array"><custom_attribute><key/><value/></custom_attribute>…</custom_attributes></device>` (underscored names; versions never reported are `nil="true"`)';
const oneDeviceV2 = z.strictObject({ device: deviceV2View });

/** Deleting a device: the same in the first generation and v2; `summary` says where. */
const deleteRoute = (summary: string): RouteSpec => ({
  method: 'delete',
  path: '/devices/:deviceId',
  openapi: { summary, answers: deletedAnswer },
  handler: ({ send }) => deleteDevice(send),
});

/** Approving a pending device, in the second generation; `summary` says where. */
const approveV2Route = (summary: string, suffix: '.json' | '.xml'): RouteSpec => ({
  method: 'post',
  path: '/devices/:deviceId/approve',
  openapi: { summary, answers: { 200: { description: 'The device, approved (JSON unless asked for XML)', json: oneDeviceV2, xml: deviceV2Xml } } },
  hostile: [{ suffix }],
  handler: ({ send }) => approveDevice(send, secondGeneration),
});

/** Updating a device in the second generation (PUT or PATCH). */
const updateV2Route = (method: 'put' | 'patch', summary: string, suffix: '.json' | '.xml'): RouteSpec => ({
  method,
  path: '/devices/:deviceId',
  body: 'BODY_LIMIT_BYTES',
  openapi: {
    summary,
    body: devicePatchBody,
    answers: { 202: { description: 'The device as it now is (JSON unless asked for XML)', json: oneDeviceV2, xml: deviceV2Xml } },
  },
  hostile: [{ suffix, json: 'deviceUpdateV2', xml: 'deviceUpdateV2Xml' }],
  handler: ({ send }) => updateDevice(send, secondGeneration),
});

/** Device enquiry (spec 4.3) and the devices API as observed: under /organizations/<org> (authenticated and scoped by the mount). */
export const devicesFirstGeneration = declareArea({
  name: 'devices',
  mount: '/organizations/:orgId',
  tag: 'Organization (first generation)',
  routes: [
    {
      method: 'get',
      path: '/devices',
      openapi: {
        summary: 'List the approved devices',
        description: 'Pending devices are not listed in this generation (the v2 list shows them).',
        answers: { 200: { description: 'XML unless asked for JSON', json: z.strictObject({ devices: z.array(deviceView) }), xml: devicesV1Xml } },
      },
      handler: ({ send }) => listDevices(send, firstGeneration),
    },
    {
      method: 'get',
      path: '/devices/:deviceId',
      openapi: { summary: 'Show a device', answers: { 200: { description: 'XML unless asked for JSON', json: z.strictObject({ device: deviceView }), xml: deviceV1Xml } } },
      hostile: [{}],
      handler: ({ send }) => showDevice(send, firstGeneration),
    },
    {
      method: 'put',
      path: '/devices/:deviceId',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Update a device: owner, description, groups, custom attributes',
        body: devicePatchBody,
        answers: { 202: { description: 'The device as it now is', json: z.strictObject({ device: deviceView }), xml: deviceV1Xml } },
      },
      hostile: [{ json: 'deviceUpdate', xml: 'deviceUpdateXml' }],
      handler: ({ send }) => updateDevice(send, firstGeneration),
    },
    { ...deleteRoute('Delete a device'), hostile: [{}] },
    {
      method: 'post',
      path: '/devices/:deviceId/approve',
      openapi: {
        summary: 'Approve a pending device',
        answers: { 200: { description: 'The device, approved (JSON unless asked for XML)', json: z.strictObject({ device: deviceView }), xml: deviceV1Xml } },
      },
      hostile: [{}],
      handler: ({ send }) => approveDevice(send, firstGeneration),
    },
  ],
});

/**
 * Devices v2 (observed-behaviour, "Later generations of the other APIs"): list and show at
 * /api/v2/organizations/<org>/devices…; approve, update and delete at
 * /api/organizations/<org>/devices…, and delete and approve under /api/v2 too, as the
 * product's README and api_v2_readme.md list them. The first generation's handlers over the
 * same commands, answering the second generation's device (JSON unless the path or headers
 * ask for XML): one record on both.
 */
export const devicesSecondGenerationV2 = declareArea({
  name: 'devices-v2',
  mount: '/api/v2/organizations/:orgId',
  tag: 'Devices and groups (second generation)',
  routes: [
    {
      method: 'get',
      path: '/devices',
      openapi: {
        summary: 'List devices, pending ones too (second generation)',
        answers: {
          200: {
            description: 'JSON unless asked for XML',
            json: z.strictObject({ devices: z.array(deviceV2View) }),
            xml: '`<devices type="array"><device>…</device>…</devices>`',
          },
        },
      },
      handler: ({ send }) => listDevices(send, secondGeneration),
    },
    {
      method: 'get',
      path: '/devices/:deviceId',
      openapi: {
        summary: 'Show a device (second generation)',
        answers: { 200: { description: 'JSON unless asked for XML: the bare device, as v2/devices.md shows it', json: deviceV2View, xml: deviceV2Xml } },
      },
      hostile: [{ suffix: '.xml' }],
      handler: ({ send }) => showDevice(send, secondGeneration),
    },
    deleteRoute("Delete a device (under /api/v2 too, as the product's README lists it)"),
    approveV2Route('Approve a pending device (under /api/v2 too, as api_v2_readme.md lists it)', '.xml'),
  ],
});

export const devicesSecondGeneration = declareArea({
  name: 'devices-v2',
  mount: '/api/organizations/:orgId',
  tag: 'Devices and groups (second generation)',
  routes: [
    updateV2Route('put', 'Update a device: owner, description, groups, custom attributes', '.json'),
    updateV2Route('patch', 'Update a device (PATCH: the same as PUT)', '.xml'),
    deleteRoute('Delete a device'),
    approveV2Route('Approve a pending device', '.json'),
  ],
});
