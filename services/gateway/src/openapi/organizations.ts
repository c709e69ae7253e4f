import { z } from 'zod';
import { createGroupsPayload, moveFormPayload, updateDevicePayload, updateGroupPayload } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { deviceView, formCreatedView, formDefinitionView, formListItemView, formUpdatedView, groupView, outstandingOneshotView } from './views';

/** First generation (api-spec.md): groups, devices, forms, the organization's oneshots, the Connections API. */

export const groupNamesBody = {
  json: schemaOf(createGroupsPayload.shape.names, 'input'),
  xml: '`<groups><group><name>Field team</name></group>…</groups>`',
  description: 'The names of the groups to create',
};

const { shape: groupPatch } = updateGroupPayload;
export const groupPatchBody = {
  json: {
    type: 'object',
    properties: {
      group: {
        type: 'object',
        properties: {
          name: schemaOf(groupPatch.name.unwrap(), 'input'),
          form_ids: { ...schemaOf(groupPatch.formIds.unwrap(), 'input'), description: 'replaces the group\'s forms (those dropped go back to Default)' },
          device_ids: { ...schemaOf(groupPatch.deviceIds.unwrap(), 'input'), description: 'replaces the group\'s devices' },
          tags: { ...schemaOf(groupPatch.tags.unwrap(), 'input'), description: 'replaces the group\'s tags (group.md: the v2 list shows and filters them)' },
        },
      },
    },
    required: ['group'],
  },
  xml: '`<group><name/><form_ids><form_id>1</form_id>…</form_ids><device_ids><device_id>1</device_id>…</device_ids><tags><name>food</name>…</tags></group>`',
};

const groupsXml = '`<groups type="array"><group><id/><name/><form_ids><form_id/>…</form_ids><device_ids><device_id/>…</device_ids><tags><name/>…</tags></group>…</groups>`';

/** The groups operations, shared by the first and second generations' paths. */
export const groupOperations = {
  list: (description: string): OperationSpec => ({
    summary: 'List groups',
    description,
    auth: 'apiToken',
    suffixes: '.json|.xml',
    answers: { 200: { description: 'The organization\'s groups (XML unless asked for JSON)', json: z.strictObject({ groups: z.array(groupView) }), xml: groupsXml } },
    errors: [404],
  }),
  create: (): OperationSpec => ({
    summary: 'Create groups',
    auth: 'apiToken',
    suffixes: '.json|.xml',
    body: groupNamesBody,
    answers: {
      201: { description: 'The groups created (names that existed are left out)', json: z.strictObject({ groups: z.array(groupView) }), xml: groupsXml },
      304: { description: 'Every name exists already: nothing created (empty body)' },
    },
    errors: [400, 404],
  }),
  update: (): OperationSpec => ({
    summary: 'Update a group: rename it, replace its forms, devices or tags',
    description: 'Default cannot be renamed; forms dropped from a group go back to Default.',
    auth: 'apiToken',
    suffixes: '.json|.xml',
    body: groupPatchBody,
    answers: { 200: { description: 'The group as it now is', json: z.strictObject({ group: groupView }), xml: '`<group><id/><name/><form_ids/><device_ids/><tags/></group>`' } },
    errors: [400, 404, 409],
  }),
  delete: (): OperationSpec => ({
    summary: 'Delete a group (its forms go to Default; Default cannot be deleted)',
    auth: 'apiToken',
    suffixes: '.json|.xml',
    answers: { 200: { description: 'Deleted (empty body)' } },
    errors: [400, 404],
  }),
};

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
const definitionBody = {
  json: { type: 'object', description: 'the form definition: `type`, `title`, `children` (its questions), optionally `namespace`' },
  xml: '`<h:html>` XForms: `<h:head><h:title/><model><instance xmlns="namespace"><root><question/>…</root></instance><bind nodeset type required/>…</model></h:head><h:body>` its controls (input, textarea, secret, select1, select with items, group, repeat) in order',
} as const;

const xformsXml =
  '`<h:html>` XForms (form.md): the title, the instance in the form\'s namespace under `<inputs>`, a `<bind>` for each typed or required question, the controls in order; keys XForms has no term for are `dm:` attributes, and a definition holding one no attribute can carry (a list, a structure) is 422 naming it';

const oneshotFormsXml = '`<forms type="array"><form><description/><device-id type="integer"/><id type="integer"/><name/><namespace/><organization-id type="integer"/></form>…</forms>`';

export const organizationPaths: PathTable = {
  '/organizations/{orgId}/groups': {
    get: groupOperations.list('The first generation\'s list: every group of the organization, unpaged.'),
    post: groupOperations.create(),
  },
  '/organizations/{orgId}/groups/{groupId}': {
    put: groupOperations.update(),
    delete: groupOperations.delete(),
  },
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
  '/organizations/{orgId}/forms': {
    get: {
      summary: 'List forms (templates)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: {
        200: {
          description: 'The organization\'s forms (JSON unless asked for XML)',
          json: z.strictObject({ forms: z.array(formListItemView) }),
          xml: '`<forms type="array"><form><id type="integer"/><name/><namespace/><version/><description/><group/></form>…</forms>` (form.md)',
        },
      },
      errors: [404],
    },
    post: {
      summary: 'Create a form from its definition (JSON or XForms)',
      description: 'A definition keeping its own `namespace` keeps it; otherwise one is generated. The form joins Default at version "1.00". An XML body is XForms as form.md shows it; what it holds that a definition has no place for is refused (400), naming it.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      body: definitionBody,
      answers: { 201: { description: 'The form created (JSON unless asked for XML)', json: formCreatedView, xml: '`<form><id type="integer"/><namespace/><name/></form>` (form.md)' } },
      errors: [400, 404, 409],
    },
  },
  '/organizations/{orgId}/forms/{formId}': {
    get: {
      summary: 'Show a form\'s definition (JSON, or XForms)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      query: {
        version: {
          schema: { type: 'string', pattern: '^[0-9]{1,9}(\\.[0-9]{1,9})?$' },
          description: 'A version ("1.02") or revision (3): the current definition or an earlier one; a version the form never had is 404 naming the current one',
        },
      },
      answers: {
        200: {
          description: 'The definition as posted, with its namespace, version, description and group (JSON unless asked for XML)',
          json: formDefinitionView,
          xml: xformsXml,
        },
      },
      errors: [400, 404, 422],
    },
    put: {
      summary: 'Replace a form\'s definition (a new version, the one before kept; the namespace never changes)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      body: definitionBody,
      answers: { 202: { description: 'The form at its new version (JSON unless asked for XML)', json: formUpdatedView, xml: '`<form><id type="integer"/><namespace/><name/><version/></form>` (form.md)' } },
      errors: [400, 404, 409],
    },
    delete: {
      summary: 'Delete a form',
      auth: 'apiToken',
      suffixes: '.json',
      answers: { 200: { description: 'Deleted (empty body)' } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/forms/{formId}/properties': {
    post: {
      summary: 'Move a form to another group',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      body: {
        json: { type: 'object', properties: { group: schemaOf(moveFormPayload.shape.group, 'input') }, required: ['group'] },
        xml: '`<form_properties><group>Unpublished</group></form_properties>` (form.md)',
      },
      answers: {
        200: {
          description: 'The form in its new group (JSON unless the suffix, Content-Type or Accept asks for XML)',
          json: z.strictObject({ form: formListItemView }),
          xml: '`<form><id type="integer"/><namespace/><name/><version/><description/><group/></form>`',
        },
      },
      errors: [400, 404],
    },
  },
  '/api/v3/forms/{formId}/lock': {
    put: {
      summary: 'Lock a form: it takes no new definition (409) until unlocked (form.md)',
      description: 'A failure says why in the `Message` header, as every failure does.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'Locked (empty body); locking a locked form is no error' } },
      errors: [404],
    },
  },
  '/api/v3/forms/{formId}/unlock': {
    put: {
      summary: 'Unlock a form (form.md)',
      description: 'A failure says why in the `Message` header, as every failure does.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'Unlocked (empty body)' } },
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
