import { pushEvents } from '@formcast/contracts';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import type { Oneshot } from '../../src/domain/records';

const at = '2030-01-01T08:00:00.000Z';
const dispatch: Oneshot = {
  id: 5,
  orgId: 1,
  deviceId: 10,
  deviceIdentifier: 'Android_van3',
  formId: 7,
  templateNamespace: 'http://forms.example.com/inspection',
  namespace: 'http://forms.example.com/inspection?0b6f',
  name: 'Inspection',
  description: 'Weekly',
  payload: {},
  state: 'outstanding',
  createdAt: at,
  updatedAt: at,
  formVersion: '1.00',
  scheduledAt: null,
  releasedAt: at,
  location: null,
  address: null,
  geofenceRadius: null,
};

describe('oneshotEvent', () => {
  it('announces a released oneshot to the notifier, with the push token given', () => {
    expect(oneshotEvent(pushEvents.oneshotCreated, 'tok', 'req-1')(dispatch)).toMatchObject({
      type: pushEvents.oneshotCreated,
      orgId: 1,
      requestId: 'req-1',
      payload: { oneshotId: 5, deviceId: 10, pushToken: 'tok', name: 'Inspection' },
    });
  });

  it('announces nothing of a dispatch not yet released: its device and badge must not learn of it', () => {
    const waiting = { ...dispatch, scheduledAt: '2030-02-01T00:00:00.000Z', releasedAt: null };
    for (const type of Object.values(pushEvents)) expect(oneshotEvent(type, 'tok', 'req-1')(waiting)).toBeNull();
  });
});
