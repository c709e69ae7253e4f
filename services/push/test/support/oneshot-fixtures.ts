import type { OneshotRequest } from '../../src/domain/records';

/** A push of form 1 to `deviceId` of organization 1, as the outbox relay tests write them. */
export function oneshotRequestFor(deviceId: number): OneshotRequest {
  return {
    orgId: 1,
    deviceId,
    deviceIdentifier: `Android_${deviceId}`,
    formId: 1,
    templateNamespace: 'http://x/xforms/1',
    namespace: `http://x/xforms/1?${deviceId}`,
    name: 'Form',
    description: '',
    payload: {},
    formVersion: '1.00',
    scheduledAt: null,
    location: null,
    address: null,
    geofenceRadius: null,
  };
}
