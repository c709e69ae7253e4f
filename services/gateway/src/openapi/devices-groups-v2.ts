import { z } from 'zod';
import type { OperationSpec, PathTable } from './operation';
import { deleteDevice, devicePatchBody } from './organizations';
import { deviceV2View } from './views';

/** Second generation of devices and groups: reads under /api/v2/organizations/…, writes under /api/organizations/…. */

const deviceXml =
  '`<device><id/><identifier/><os_version/><app_identifier/><app_version/><organization_id/><owner/><description/><pending_approval/><groups type="array"><name/>…</groups><custom_attributes type="array"><custom_attribute><key/><value/></custom_attribute>…</custom_attributes></device>` (underscored names; versions never reported are `nil="true"`)';
const oneDevice = z.strictObject({ device: deviceV2View });

const updateDevice: OperationSpec = {
  summary: 'Update a device: owner, description, groups, custom attributes',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  body: devicePatchBody,
  answers: { 202: { description: 'The device as it now is (JSON unless asked for XML)', json: oneDevice, xml: deviceXml } },
  errors: [400, 404],
};

const approveDevice: OperationSpec = {
  summary: 'Approve a pending device',
  auth: 'apiToken',
  suffixes: '.json|.xml',
  answers: { 200: { description: 'The device, approved (JSON unless asked for XML)', json: oneDevice, xml: deviceXml } },
  errors: [404],
};

export const devicesGroupsV2Paths: PathTable = {
  '/api/v2/organizations/{orgId}/devices': {
    get: {
      summary: 'List devices, pending ones too (second generation)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: {
        200: {
          description: 'JSON unless asked for XML',
          json: z.strictObject({ devices: z.array(deviceV2View) }),
          xml: '`<devices type="array"><device>…</device>…</devices>`',
        },
      },
      errors: [404],
    },
  },
  '/api/v2/organizations/{orgId}/devices/{deviceId}': {
    get: {
      summary: 'Show a device (second generation)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'JSON unless asked for XML: the bare device, as v2/devices.md shows it', json: deviceV2View, xml: deviceXml } },
      errors: [404],
    },
    delete: { ...deleteDevice, summary: `${deleteDevice.summary} (under /api/v2 too, as the product's README lists it)` },
  },
  '/api/organizations/{orgId}/devices/{deviceId}': {
    put: updateDevice,
    patch: { ...updateDevice, summary: 'Update a device (PATCH: the same as PUT)' },
    delete: deleteDevice,
  },
  '/api/organizations/{orgId}/devices/{deviceId}/approve': { post: approveDevice },
  '/api/v2/organizations/{orgId}/devices/{deviceId}/approve': { post: { ...approveDevice, summary: `${approveDevice.summary} (under /api/v2 too, as api_v2_readme.md lists it)` } },
};
