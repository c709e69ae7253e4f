import { isAppError } from '@formcast/platform';
import {
  checkCustomAttributes,
  checkDeviceMayAuthenticate,
  customAttributeLimits,
  newEnrolledDevice,
  parseDeviceRef,
  reportedVersionsChange,
} from '../../src/domain/device-rules';
import type { Device } from '../../src/domain/records';
import { thrownBy } from '../thrown-by';

const now = '2030-05-01T10:00:00.000Z';

describe('newEnrolledDevice', () => {
  it('is pending approval, in the Default group only', () => {
    const input = {
      orgId: 7,
      identifier: 'Android_1',
      owner: 'Sam',
      description: 'Van 3',
      pushToken: 'fcm-1',
      secretHash: 'hash',
    };
    expect(newEnrolledDevice({ ...input, enrollment_code: 'not kept' } as typeof input, 4, now)).toEqual({
      ...input,
      pendingApproval: true,
      groupIds: [4],
      osVersion: null,
      appIdentifier: null,
      appVersion: null,
      customAttributes: {},
      createdAt: now,
    });
  });

  it('keeps the versions the device reports, with no custom attributes', () => {
    const input = { orgId: 7, identifier: 'iPhone_1', owner: '', description: '', pushToken: null, secretHash: 'hash' };
    const reported = { osVersion: 'iOS 17.4', appIdentifier: 'com.example.forms', appVersion: '7.2' };
    expect(newEnrolledDevice({ ...input, ...reported }, 4, now)).toMatchObject({ ...reported, customAttributes: {} });
    expect(newEnrolledDevice({ ...input, appVersion: '7.2' }, 4, now)).toMatchObject({ osVersion: null, appIdentifier: null, appVersion: '7.2' });
  });
});

describe('checkCustomAttributes', () => {
  function refusal(value: unknown): string {
    const error = thrownBy(() => checkCustomAttributes(value));
    if (!isAppError(error) || error.code !== 'invalid') throw new Error(`expected an 'invalid' AppError, got ${String(error)}`);
    return error.message;
  }

  it('accepts an object of names to text, up to the limits, as an object of its own', () => {
    const most = Object.fromEntries(Array.from({ length: customAttributeLimits.count }, (_, n) => [`name-${n}`, `value ${n}`]));
    expect(checkCustomAttributes(most)).toEqual(most);
    expect(checkCustomAttributes({})).toEqual({});
    const longest = { ['n'.repeat(64)]: 'v'.repeat(255), ['📱'.repeat(64)]: '€'.repeat(255) };
    expect(checkCustomAttributes(longest)).toEqual(longest);
    const given = { region: 'North' };
    const checked = checkCustomAttributes(given);
    expect(checked).not.toBe(given);
  });

  it('keeps "__proto__" as a plain name, without touching any prototype', () => {
    const parsed: unknown = JSON.parse('{"__proto__": "x", "constructor": "y"}');
    const checked = checkCustomAttributes(parsed);
    expect(Object.keys(checked)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(checked)).toBe(Object.prototype);
  });

  it('refuses anything but an object, naming custom_attributes', () => {
    for (const value of [null, 'region=North', 3, true, ['North'], [['region', 'North']]]) {
      expect(refusal(value)).toMatch(/^custom_attributes: must be an object of names to text values/);
    }
  });

  it('refuses more than 50 pairs, empty or overlong names, and values that are not text or too long', () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, n) => [`n${n}`, 'v']));
    expect(refusal(tooMany)).toBe('custom_attributes: at most 50 attributes, got 51');
    expect(refusal({ '': 'x' })).toBe('custom_attributes: a name must not be empty');
    expect(refusal({ '  ': 'x' })).toBe('custom_attributes: a name must not be empty');
    expect(refusal({ ['n'.repeat(65)]: 'x' })).toBe(`custom_attributes: the name "${'n'.repeat(64)}"… is longer than 64 characters`);
    expect(refusal({ floor: 3 })).toBe('custom_attributes: the value of "floor" must be text');
    expect(refusal({ floor: null })).toBe('custom_attributes: the value of "floor" must be text');
    expect(refusal({ floor: { level: '3' } })).toBe('custom_attributes: the value of "floor" must be text');
    expect(refusal({ note: 'v'.repeat(256) })).toBe('custom_attributes: the value of "note" is longer than 255 characters');
  });

  it('quotes a name as JSON, so a message stays on one line', () => {
    expect(refusal({ 'a\nresponse_code: ok': 1 })).toBe('custom_attributes: the value of "a\\nresponse_code: ok" must be text');
  });
});

describe('reportedVersionsChange', () => {
  it('changes only the versions reported', () => {
    expect(reportedVersionsChange({ os_version: 'Android 14', app_identifier: 'com.example.forms', app_version: '7.2' })).toEqual({
      osVersion: 'Android 14',
      appIdentifier: 'com.example.forms',
      appVersion: '7.2',
    });
    expect(reportedVersionsChange({ app_version: '' })).toEqual({ appVersion: '' });
  });

  it('refuses a report naming none of them', () => {
    const error = thrownBy(() => reportedVersionsChange({}));
    expect(isAppError(error) && [error.code, error.message]).toEqual(['invalid', 'Report at least one of os_version, app_identifier, app_version']);
  });
});

describe('checkDeviceMayAuthenticate', () => {
  const device: Device = {
    id: 1,
    orgId: 7,
    identifier: 'Android_1',
    owner: '',
    description: '',
    pendingApproval: false,
    pushToken: null,
    groupIds: [],
    osVersion: null,
    appIdentifier: null,
    appVersion: null,
    customAttributes: {},
    createdAt: now,
  };

  function refusal(candidate: Device | null) {
    const error = thrownBy(() => checkDeviceMayAuthenticate(candidate));
    return isAppError(error) ? [error.code, error.message] : error;
  }

  it('lets an approved device in', () => {
    expect(checkDeviceMayAuthenticate(device)).toBe(device);
  });

  it('refuses an unknown secret, and tells a pending device it waits for approval', () => {
    expect(refusal(null)).toEqual(['unauthorized', 'Invalid device secret']);
    expect(refusal({ ...device, pendingApproval: true })).toEqual(['forbidden', 'This device is waiting for approval']);
  });
});

describe('parseDeviceRef', () => {
  it('reads a positive integer as an id', () => {
    expect(parseDeviceRef('42')).toEqual({ id: 42 });
    expect(parseDeviceRef('999999999999999')).toEqual({ id: 999999999999999 });
  });

  it('reads anything else as an identifier', () => {
    for (const ref of ['Android_42', '042', '0', '-1', '1.5', '1e3', '9999999999999999']) {
      expect(parseDeviceRef(ref)).toEqual({ identifier: ref });
    }
  });
});
