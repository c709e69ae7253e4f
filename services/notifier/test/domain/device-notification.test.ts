import { pushEvents, type OneshotEventPayload, type PushEventType } from '@formcast/contracts';
import { announcesOneshot, notificationFor } from '../../src/domain/device-notification';

const payload: OneshotEventPayload = {
  oneshotId: 9,
  orgId: 1,
  deviceId: 2,
  deviceIdentifier: 'Android_2',
  pushToken: 'token-2',
  name: 'Inspection',
  description: 'Call ahead',
  namespace: 'http://formcast.local/xforms/9',
};

const allEvents: PushEventType[] = [pushEvents.oneshotCreated, pushEvents.oneshotUpdated, pushEvents.oneshotRevoked, pushEvents.oneshotCompleted];

describe('announcesOneshot', () => {
  it('announces a created oneshot only where this handling took its announcement', () => {
    expect(announcesOneshot(pushEvents.oneshotCreated, { outstanding: true, announce: true })).toBe(true);
    expect(announcesOneshot(pushEvents.oneshotCreated, { outstanding: true, announce: false })).toBe(false);
  });

  it('announces nothing that has ended, and no event but created', () => {
    expect(announcesOneshot(pushEvents.oneshotCreated, { outstanding: false, announce: true }, { redelivered: true })).toBe(false);
    for (const event of allEvents.filter((e) => e !== pushEvents.oneshotCreated)) {
      expect(announcesOneshot(event, { outstanding: true, announce: true }, { redelivered: true })).toBe(false);
    }
  });

  it('announces again on the broker redelivering an event whose handler died, the announcement being taken', () => {
    expect(announcesOneshot(pushEvents.oneshotCreated, { outstanding: true, announce: false }, { redelivered: true })).toBe(true);
    expect(announcesOneshot(pushEvents.oneshotCreated, { outstanding: true, announce: false }, { redelivered: false })).toBe(false);
  });
});

describe('notificationFor', () => {
  it('shows the oneshot when it announces, and the badge either way', () => {
    const oneshot = { id: 9, name: 'Inspection', description: 'Call ahead', namespace: 'http://formcast.local/xforms/9' };
    expect(notificationFor(pushEvents.oneshotCreated, payload, { badge: 3, announces: true })).toEqual({
      orgId: 1,
      deviceId: 2,
      deviceIdentifier: 'Android_2',
      pushToken: 'token-2',
      badge: 3,
      event: pushEvents.oneshotCreated,
      oneshot,
      announces: oneshot,
    });
    expect(notificationFor(pushEvents.oneshotCreated, payload, { badge: 3, announces: false })).toMatchObject({ badge: 3, announces: null });
  });

  it('is null for a device without a push token', () => {
    expect(notificationFor(pushEvents.oneshotCreated, { ...payload, pushToken: null }, { badge: 1, announces: true })).toBeNull();
  });
});
