import { z } from 'zod';
import { updateDevicePayload } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { deviceView, formCreatedView, formDefinitionView, formListItemView, formUpdatedView, outstandingOneshotView } from './views';

/** First generation (api-spec.md): groups, devices, forms, the organization's oneshots, the Connections API. */

const { shape: devicePatch } = updateDevicePayload;
/** `{"device": {…}}` or `<device>`: the fields a device update changes; absent ones stay. */
/** Deleting a device: the same in the first generation and v2. */
export const deleteDevice: OperationSpec = {
  summary: 'Delete a device',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  answers: { 200: { description: 'Deleted (empty body)' } },
  errors: [404],
};

export const devicePatchBody = {
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
/** A form definition: JSON, or XForms (form.md's `<h:html>`). */
const oneshotFormsXml = '`<forms type="array"><form><description/><device-id type="integer"/><id type="integer"/><name/><namespace/><organization-id type="integer"/></form>…</forms>`';

export const organizationPaths: PathTable = {
  '/organizations/{orgId}/devices': {
    get: {
      summary: 'List the approved devices',
      description: 'Pending devices are not listed in this generation (the v2 list shows them).',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'XML unless asked for JSON', json: z.strictObject({ devices: z.array(deviceView) }), xml: devicesV1Xml } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/devices/{deviceId}': {
    get: {
      summary: 'Show a device',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'XML unless asked for JSON', json: z.strictObject({ device: deviceView }), xml: deviceV1Xml } },
      errors: [404],
    },
    put: {
      summary: 'Update a device: owner, description, groups, custom attributes',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      body: devicePatchBody,
      answers: { 202: { description: 'The device as it now is', json: z.strictObject({ device: deviceView }), xml: deviceV1Xml } },
      errors: [400, 404],
    },
    delete: deleteDevice,
  },
  '/organizations/{orgId}/devices/{deviceId}/approve': {
    post: {
      summary: 'Approve a pending device',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'The device, approved (JSON unless asked for XML)', json: z.strictObject({ device: deviceView }), xml: deviceV1Xml } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/oneshots': {
    get: {
      summary: 'List every outstanding oneshot of the organization',
      description: 'Unpaginated (spec 2.8), streamed as it is read: a failure midway cuts the connection rather than answer a shorter list.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'XML unless asked for JSON; JSON is a bare array', json: z.array(outstandingOneshotView), xml: oneshotFormsXml } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/forms/{formId}/remote_connections': {
    post: {
      summary: 'Create connections (the Connections API: XML destinations of a form)',
      description: 'Each `<http_connection>` becomes an http_transport destination with xml_format; a request makes all or none.',
      auth: 'apiToken',
      suffixes: '.xml',
      body: { xml: '`<remote_connections><http_connection><name/><remote_url/><headers><header_1>value_1</header_1></headers></http_connection>…</remote_connections>`' },
      answers: {
        201: {
          description: 'The connections made, each with its signing secret (shown this once)',
          xml: '`<remote_connections type="array"><http_connection><id/><name/><remote_url/><headers/>…<secret/></http_connection>…</remote_connections>`',
        },
      },
      errors: [400, 404],
    },
    get: {
      summary: 'List a form\'s connections',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: { 200: { description: 'The form\'s http_transport destinations', xml: '`<remote_connections type="array"><http_connection>…</http_connection>…</remote_connections>`' } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/forms/{formId}/remote_connections/{connectionId}': {
    get: {
      summary: 'Show a connection',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: { 200: { description: 'The connection', xml: '`<http_connection><id/><name/><remote_url/><headers/>…</http_connection>`' } },
      errors: [404],
    },
    delete: {
      summary: 'Delete a connection',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: { 200: { description: 'Deleted (empty body)' } },
      errors: [404],
    },
  },
};
