import { z } from 'zod';
import { updateDevicePayload } from '@formcast/contracts';
import { schemaOf } from '../openapi/json-schema';
import { answerOf, wrappedBody } from '../openapi/operation-parts';
import { deviceV2View, deviceView } from '../openapi/views';
import { approveDevice, deleteDevice, firstGeneration, listDevices, secondGeneration, showDevice, updateDevice } from '../routes/devices';
import { declareArea, type RouteSpec } from './declare';
import { action, deletion, read, write, type More } from './route-kinds';

const { shape: devicePatch } = updateDevicePayload;
/** `{"device": {…}}` or `<device>`: the fields a device update changes; absent ones stay. */
const devicePatchBody = {
  json: wrappedBody('device', {
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
  }),
  xml: '`<device><owner/><description/><groups>Default,Field</groups><custom_attributes type="array"><custom_attribute><key/><value/></custom_attribute>…</custom_attributes></device>` (groups also as `<groups type="array"><name/>…`)',
};

const devicesV1Xml = '`<devices type="array"><device><id/><identifier/><organization-id/><owner/><description/><pending-approval/><groups/><custom-attributes/></device>…</devices>` (dashed names)';
const deviceV1Xml = '`<device>` with the dashed elements of the list';

const deviceV2Xml =
  '`<device><id/><identifier/><os_version/><app_identifier/><app_version/><organization_id/><owner/><description/><pending_approval/><groups type="array"><name/>…</groups><custom_attributes type="array"><custom_attribute><key/><value/></custom_attribute>…</custom_attributes></device>` (underscored names; versions never reported are `nil="true"`)';

/** Deleting a device: the same in the first generation and v2; `summary` says where. */
const deleteRoute = (summary: string, more?: More): RouteSpec => deletion('/devices/:deviceId', summary, ({ send }) => deleteDevice(send), more);

const approvedDescription = 'The device, approved (JSON unless asked for XML)';

/** Approving a pending device, in the second generation; `summary` says where. */
const approveV2Route = (summary: string, suffix: '.json' | '.xml'): RouteSpec =>
  action('post', '/devices/:deviceId/approve', summary, { 200: answerOf(approvedDescription, { device: deviceV2View }, deviceV2Xml) }, ({ send }) => approveDevice(send, secondGeneration), {
    hostile: [{ suffix }],
  });

/** Updating a device in the second generation (PUT or PATCH). */
const updateV2Route = (method: 'put' | 'patch', summary: string, suffix: '.json' | '.xml'): RouteSpec =>
  write(method, '/devices/:deviceId', [{ suffix, json: 'deviceUpdateV2', xml: 'deviceUpdateV2Xml' }], ({ send }) => updateDevice(send, secondGeneration), {
    summary,
    body: devicePatchBody,
    answers: { 202: answerOf('The device as it now is (JSON unless asked for XML)', { device: deviceV2View }, deviceV2Xml) },
  });

/** Device enquiry (spec 4.3) and the devices API as observed: under /organizations/<org> (authenticated and scoped by the mount). */
export const devicesFirstGeneration = declareArea({
  name: 'devices',
  mount: '/organizations/:orgId',
  tag: 'Organization (first generation)',
  routes: [
    read('/devices', 'List the approved devices', answerOf('XML unless asked for JSON', { devices: z.array(deviceView) }, devicesV1Xml), ({ send }) => listDevices(send, firstGeneration), {
      openapi: { description: 'Pending devices are not listed in this generation (the v2 list shows them).' },
    }),
    read('/devices/:deviceId', 'Show a device', answerOf('XML unless asked for JSON', { device: deviceView }, deviceV1Xml), ({ send }) => showDevice(send, firstGeneration), { hostile: [{}] }),
    write('put', '/devices/:deviceId', [{ json: 'deviceUpdate', xml: 'deviceUpdateXml' }], ({ send }) => updateDevice(send, firstGeneration), {
      summary: 'Update a device: owner, description, groups, custom attributes',
      body: devicePatchBody,
      answers: { 202: answerOf('The device as it now is', { device: deviceView }, deviceV1Xml) },
    }),
    deleteRoute('Delete a device', { hostile: [{}] }),
    action('post', '/devices/:deviceId/approve', 'Approve a pending device', { 200: answerOf(approvedDescription, { device: deviceView }, deviceV1Xml) }, ({ send }) => approveDevice(send, firstGeneration), {
      hostile: [{}],
    }),
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
    read(
      '/devices',
      'List devices, pending ones too (second generation)',
      answerOf('JSON unless asked for XML', { devices: z.array(deviceV2View) }, '`<devices type="array"><device>…</device>…</devices>`'),
      ({ send }) => listDevices(send, secondGeneration),
    ),
    read(
      '/devices/:deviceId',
      'Show a device (second generation)',
      { description: 'JSON unless asked for XML: the bare device, as v2/devices.md shows it', json: deviceV2View, xml: deviceV2Xml },
      ({ send }) => showDevice(send, secondGeneration),
      { hostile: [{ suffix: '.xml' }] },
    ),
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
