import type { ResolvedDevice } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { requireApproved } from '../../src/domain/device-approval';

const device: ResolvedDevice = { id: 10, orgId: 1, identifier: 'Android_van3', owner: 'Ada', pendingApproval: false, pushToken: 'fcm-token', groupIds: [1] };

describe('requireApproved', () => {
  it('gives an approved device back', () => {
    expect(requireApproved(device, 'Android_van3')).toBe(device);
  });

  it('refuses a device waiting for approval as a bad request naming it as the path did', () => {
    const pending = { ...device, pendingApproval: true };
    let thrown: unknown;
    try {
      requireApproved(pending, '10');
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown) && { code: thrown.code, message: thrown.message }).toEqual({
      code: 'invalid',
      message: 'Device 10 is waiting for approval',
    });
  });
});
