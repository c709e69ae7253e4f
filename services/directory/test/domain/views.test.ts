import type { Device, Form, Group } from '../../src/domain/records';
import {
  formatFormVersion,
  toApiTokenView,
  toAuthenticatedDevice,
  toDeviceV2View,
  toDeviceVersionsView,
  toDeviceView,
  toDeviceViewOf,
  toDeviceWithPushTokenPresenceView,
  toFormDefinitionView,
  toFormListItemView,
  toGroupView,
  toOrganizationView,
  toResolvedDevice,
  toResolvedForm,
} from '../../src/domain/views';

const createdAt = '2030-05-01T10:00:00.000Z';
const groupNames = new Map([
  [1, 'Default'],
  [2, 'North'],
]);
const device: Device = {
  id: 5,
  orgId: 7,
  identifier: 'Android_5',
  owner: 'Sam',
  description: 'Van 3',
  pendingApproval: true,
  pushToken: 'fcm-5',
  groupIds: [1, 2, 3],
  osVersion: 'Android 14',
  appIdentifier: 'com.example.forms',
  appVersion: '7.2.1',
  customAttributes: { region: 'North' },
  createdAt,
};
const form: Form = {
  id: 9,
  orgId: 7,
  name: 'Inspection',
  namespace: 'http://forms.example.com/inspection',
  description: 'Weekly',
  revision: 3,
  groupId: 2,
  locked: false,
  definition: { type: 'root', title: 'Inspection', children: [{ identifier: 'site', type: 'text' }] },
  createdAt,
  updatedAt: createdAt,
};

describe('views', () => {
  it('shows a group with its member ids', () => {
    const group: Group = { id: 2, orgId: 7, name: 'North', isDefault: false, formIds: [9], deviceIds: [5], tags: ['food', 'health'] };
    expect(toGroupView(group)).toEqual({ id: 2, name: 'North', form_ids: [9], device_ids: [5], tags: ['food', 'health'] });
  });

  it('shows a device with its group names, comma-separated, leaving out groups it cannot name', () => {
    expect(toDeviceView(device, groupNames)).toEqual({
      id: 5,
      identifier: 'Android_5',
      organization_id: 7,
      owner: 'Sam',
      description: 'Van 3',
      pending_approval: true,
      groups: 'Default,North',
      custom_attributes: { region: 'North' },
    });
    expect(toDeviceView({ ...device, groupIds: [] }, groupNames).groups).toBe('');
    expect(toDeviceView({ ...device, customAttributes: {} }, groupNames).custom_attributes).toEqual({});
  });

  it('tells whether a device has a push token, never the token itself', () => {
    const withToken = toDeviceWithPushTokenPresenceView(device, groupNames);
    expect(withToken).toEqual({ ...toDeviceView(device, groupNames), push_token_present: true });
    expect(JSON.stringify(withToken)).not.toContain('fcm-5');
    expect(toDeviceWithPushTokenPresenceView({ ...device, pushToken: null }, groupNames).push_token_present).toBe(false);
  });

  it('shows a device in the second generation with its versions, groups as objects and custom attributes', () => {
    expect(toDeviceV2View(device, groupNames)).toEqual({
      id: 5,
      identifier: 'Android_5',
      os_version: 'Android 14',
      app_identifier: 'com.example.forms',
      app_version: '7.2.1',
      organization_id: 7,
      owner: 'Sam',
      description: 'Van 3',
      pending_approval: true,
      groups: [{ name: 'Default' }, { name: 'North' }],
      custom_attributes: { region: 'North' },
    });
    const silent = { ...device, osVersion: null, appIdentifier: null, appVersion: null, groupIds: [] };
    expect(toDeviceV2View(silent, groupNames)).toMatchObject({ os_version: null, app_identifier: null, app_version: null, groups: [] });
  });

  it('shows a device in the generation asked for, and a device its own versions', () => {
    expect(toDeviceViewOf('v1', device, groupNames)).toEqual(toDeviceView(device, groupNames));
    expect(toDeviceViewOf('v2', device, groupNames)).toEqual(toDeviceV2View(device, groupNames));
    expect(toDeviceVersionsView(device)).toEqual({
      id: 5,
      identifier: 'Android_5',
      os_version: 'Android 14',
      app_identifier: 'com.example.forms',
      app_version: '7.2.1',
    });
  });

  it("gives each view its own copy of the custom attributes", () => {
    const view = toDeviceV2View(device, groupNames);
    view.custom_attributes['region'] = 'South';
    expect(device.customAttributes).toEqual({ region: 'North' });
  });

  it('gives other services a device with its push token and custom attributes, and an authenticated device without', () => {
    expect(toResolvedDevice(device)).toEqual({
      id: 5,
      orgId: 7,
      identifier: 'Android_5',
      owner: 'Sam',
      pendingApproval: true,
      pushToken: 'fcm-5',
      groupIds: device.groupIds,
      customAttributes: { region: 'North' },
    });
    expect(toAuthenticatedDevice(device)).toEqual({ deviceId: 5, orgId: 7, identifier: 'Android_5' });
  });

  it('shows a revision as the real product shows versions', () => {
    expect([1, 2, 10, 101].map(formatFormVersion)).toEqual(['1.00', '1.01', '1.09', '2.00']);
  });

  it('lists a form with its version and group name', () => {
    expect(toFormListItemView(form, groupNames)).toEqual({
      id: 9,
      name: 'Inspection',
      namespace: 'http://forms.example.com/inspection',
      version: '1.02',
      description: 'Weekly',
      group: 'North',
    });
    expect(toFormListItemView({ ...form, groupId: 4 }, groupNames).group).toBe('');
  });

  it("shows a form's definition with its namespace, version, description and group, and gives other services its questions", () => {
    expect(toFormDefinitionView(form, new Map([[2, 'North']]))).toEqual({ ...form.definition, namespace: form.namespace, version: '1.02', description: 'Weekly', group: 'North' });
    expect(toResolvedForm(form)).toEqual({
      id: 9,
      orgId: 7,
      namespace: form.namespace,
      name: 'Inspection',
      version: '1.02',
      groupId: form.groupId,
      questions: form.definition.children,
    });
  });

  it('shows an organization by id, name and creation time', () => {
    expect(toOrganizationView({ id: 4, name: 'Acme Surveys', createdAt })).toEqual({ id: 4, name: 'Acme Surveys', created_at: createdAt });
  });

  it('shows an API token without its hash', () => {
    expect(toApiTokenView({ id: 3, orgId: 7, label: 'ci', createdAt, revokedAt: null })).toEqual({
      id: 3,
      label: 'ci',
      created_at: createdAt,
      revoked_at: null,
    });
  });
});
