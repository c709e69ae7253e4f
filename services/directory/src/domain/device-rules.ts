import { AppError } from '@formcast/platform';
import type { CustomAttributes, Device, DeviceChange, NewDevice } from './records';

/**
 * An enrolling device joins the Default group (the real product shows
 * `<groups>Default</groups>`) and is pending until an administrator approves it. It has no
 * custom attributes yet; the versions it reports, if any, are kept.
 */
export function newEnrolledDevice(
  input: Pick<NewDevice, 'orgId' | 'identifier' | 'owner' | 'description' | 'pushToken' | 'secretHash'> &
    Partial<Pick<NewDevice, 'osVersion' | 'appIdentifier' | 'appVersion'>>,
  defaultGroupId: number,
  now: string,
): NewDevice {
  const { orgId, identifier, owner, description, pushToken, secretHash } = input;
  return {
    orgId,
    identifier,
    owner,
    description,
    pushToken,
    secretHash,
    pendingApproval: true,
    groupIds: [defaultGroupId],
    osVersion: input.osVersion ?? null,
    appIdentifier: input.appIdentifier ?? null,
    appVersion: input.appVersion ?? null,
    customAttributes: {},
    createdAt: now,
  };
}

/** Only an approved device authenticates with its secret; a pending one is told so. */
export function checkDeviceMayAuthenticate(device: Device | null): Device {
  if (!device) throw new AppError('unauthorized', 'Invalid device secret');
  if (device.pendingApproval) throw new AppError('forbidden', 'This device is waiting for approval');
  return device;
}

export type DeviceRef = { id: number } | { identifier: string };

/** A device path parameter names a device by identifier or, as later API versions allow, by id. */
export function parseDeviceRef(ref: string): DeviceRef {
  return /^[1-9][0-9]{0,14}$/.test(ref) ? { id: Number(ref) } : { identifier: ref };
}

/** Bounds of a device's custom attributes: how many, and the characters of a name and of a value. */
export const customAttributeLimits = { count: 50, nameLength: 64, valueLength: 255 } as const;

const characters = (text: string) => [...text].length;

/**
 * Custom attributes as an integrator gives them: an object of names to text values, which
 * replaces the device's. Names are 1–64 characters, values at most 255, at most 50 pairs;
 * anything else is AppError('invalid') naming `custom_attributes` (names quoted as JSON, so
 * a message stays one line).
 */
export function checkCustomAttributes(value: unknown): CustomAttributes {
  const field = 'custom_attributes';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('invalid', `${field}: must be an object of names to text values, e.g. {"region": "North"}`);
  }
  const pairs = Object.entries(value);
  if (pairs.length > customAttributeLimits.count) {
    throw new AppError('invalid', `${field}: at most ${customAttributeLimits.count} attributes, got ${pairs.length}`);
  }
  for (const [name, text] of pairs) {
    const shown = JSON.stringify([...name].slice(0, customAttributeLimits.nameLength).join(''));
    if (name.trim() === '') throw new AppError('invalid', `${field}: a name must not be empty`);
    if (characters(name) > customAttributeLimits.nameLength) {
      throw new AppError('invalid', `${field}: the name ${shown}… is longer than ${customAttributeLimits.nameLength} characters`);
    }
    if (typeof text !== 'string') throw new AppError('invalid', `${field}: the value of ${shown} must be text`);
    if (characters(text) > customAttributeLimits.valueLength) {
      throw new AppError('invalid', `${field}: the value of ${shown} is longer than ${customAttributeLimits.valueLength} characters`);
    }
  }
  // fromEntries defines each name as an own property: "__proto__" is just a name here.
  return Object.fromEntries(pairs) as CustomAttributes;
}

/** What a device reports of itself (JSON names); an absent field is left as it is. */
export interface DeviceVersionsReport {
  os_version?: string;
  app_identifier?: string;
  app_version?: string;
}

/** A device's report of its OS and app versions as a change; a report naming none of them is refused. */
export function reportedVersionsChange(report: DeviceVersionsReport): DeviceChange {
  const change: DeviceChange = {};
  if (report.os_version !== undefined) change.osVersion = report.os_version;
  if (report.app_identifier !== undefined) change.appIdentifier = report.app_identifier;
  if (report.app_version !== undefined) change.appVersion = report.app_version;
  if (Object.keys(change).length === 0) {
    throw new AppError('invalid', 'Report at least one of os_version, app_identifier, app_version');
  }
  return change;
}
