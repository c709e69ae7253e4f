import type { ErrorCode } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import {
  completedOneshot,
  existingDispatch,
  isDue,
  newOneshot,
  releasedOneshots,
  revokedDispatch,
  outstandingForDevice,
  outstandingOn,
  ownOneshot,
  revokedOneshot,
  revokedOneshots,
  updatedOneshot,
} from '../../src/domain/oneshot-lifecycle';
import type { Oneshot, OneshotState } from '../../src/domain/records';

const deviceId = 10;
const otherDevice = 11;
const created = '2030-01-01T08:00:00.000Z';
const now = '2030-01-02T09:30:00.000Z';

const request = {
  orgId: 1,
  deviceId,
  deviceIdentifier: 'Android_van3',
  formId: 7,
  templateNamespace: 'http://forms.example.com/inspection',
  namespace: 'http://forms.example.com/inspection?0b6f',
  name: 'Inspection',
  description: 'Weekly site inspection',
  payload: { site: 'North yard' },
  formVersion: '1.00',
  scheduledAt: null,
  location: null,
  address: null,
  geofenceRadius: null,
};

function oneshot(id: number, state: OneshotState = 'outstanding', extra: Partial<Oneshot> = {}): Oneshot {
  return { id, ...request, state, createdAt: created, updatedAt: created, releasedAt: created, ...extra };
}

const ref = (current: Oneshot, device = deviceId) => ({ oneshotId: current.id, deviceId: device });

/** The AppError `decide` throws: its code and message. */
function refusal(decide: () => unknown): { code: ErrorCode; message: string } {
  try {
    decide();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('newOneshot', () => {
  it('is outstanding, created and updated now, with every field of the request', () => {
    expect(newOneshot(request, now)).toEqual({ ...request, state: 'outstanding', createdAt: now, updatedAt: now, releasedAt: now });
  });
});

describe('outstandingOn and outstandingForDevice', () => {
  it('give an outstanding oneshot of that device back as it is', () => {
    const current = oneshot(5);
    expect(outstandingOn(current, ref(current))).toBe(current);
    expect(outstandingForDevice(current, ref(current))).toBe(current);
  });

  it.each([
    ['unknown (or of another organization)', null, deviceId],
    ['on another device', oneshot(5), otherDevice],
    ['revoked', oneshot(5, 'revoked'), deviceId],
    ['completed', oneshot(5, 'completed'), deviceId],
  ])('refuse a oneshot %s as not_found, the integrator told it is not outstanding, the device that it does not exist', (_label, current, device) => {
    const asked = { oneshotId: 5, deviceId: device };
    expect(refusal(() => outstandingOn(current, asked))).toEqual({ code: 'not_found', message: 'Oneshot 5 is not outstanding on this device' });
    expect(refusal(() => outstandingForDevice(current, asked))).toEqual({ code: 'not_found', message: 'Oneshot 5 does not exist' });
  });
});

describe('updatedOneshot', () => {
  it('replaces the payload, name and description, and the time of the change', () => {
    const current = oneshot(5);
    const change = { payload: { site: 'South yard' }, name: 'Re-inspection', description: 'After the storm' };
    expect(updatedOneshot(current, ref(current), change, now)).toEqual({ ...current, ...change, updatedAt: now });
  });

  it('keeps the name and description when the change leaves them out, and takes an empty one as a value', () => {
    const current = oneshot(5);
    expect(updatedOneshot(current, ref(current), { payload: {}, name: undefined }, now)).toEqual({ ...current, payload: {}, updatedAt: now });
    expect(updatedOneshot(current, ref(current), { payload: {}, description: '' }, now)).toMatchObject({ name: 'Inspection', description: '' });
  });

  it('refuses what is not outstanding on that device, leaving it as it was', () => {
    const revoked = oneshot(5, 'revoked');
    expect(refusal(() => updatedOneshot(revoked, ref(revoked), { payload: {} }, now)).code).toBe('not_found');
    expect(refusal(() => updatedOneshot(oneshot(5), ref(revoked, otherDevice), { payload: {} }, now)).code).toBe('not_found');
    expect(refusal(() => updatedOneshot(null, { oneshotId: 5, deviceId }, { payload: {} }, now)).code).toBe('not_found');
    expect(revoked).toEqual(oneshot(5, 'revoked'));
  });
});

describe('revokedOneshot', () => {
  it('ends an outstanding oneshot as revoked now, keeping everything else', () => {
    const current = oneshot(5);
    expect(revokedOneshot(current, ref(current), now)).toEqual({ ...current, state: 'revoked', updatedAt: now });
    expect(current.state).toBe('outstanding');
  });

  it.each(['revoked', 'completed'] as const)('refuses a %s oneshot as not_found', (state) => {
    const current = oneshot(5, state);
    expect(refusal(() => revokedOneshot(current, ref(current), now))).toEqual({
      code: 'not_found',
      message: 'Oneshot 5 is not outstanding on this device',
    });
  });

  it("refuses another device's oneshot and an unknown one", () => {
    expect(refusal(() => revokedOneshot(oneshot(5), { oneshotId: 5, deviceId: otherDevice }, now)).code).toBe('not_found');
    expect(refusal(() => revokedOneshot(null, { oneshotId: 5, deviceId }, now)).code).toBe('not_found');
  });
});

describe('revokedOneshots', () => {
  it('revokes each one given, in order', () => {
    const outstanding = [oneshot(3), oneshot(5), oneshot(8)];
    expect(revokedOneshots(outstanding, deviceId, now)).toEqual(outstanding.map((o) => ({ ...o, state: 'revoked', updatedAt: now })));
  });

  it('revokes none of none', () => {
    expect(revokedOneshots([], deviceId, now)).toEqual([]);
  });

  it('refuses a list holding one that is not outstanding on the device', () => {
    expect(refusal(() => revokedOneshots([oneshot(3), oneshot(5, 'completed')], deviceId, now)).code).toBe('not_found');
    expect(refusal(() => revokedOneshots([oneshot(3)], otherDevice, now)).code).toBe('not_found');
  });
});

describe('ownOneshot', () => {
  it("gives the device's own oneshot back in any state; not_found for an unknown oneshot or another device's", () => {
    const ended = oneshot(5, 'revoked');
    expect(ownOneshot(ended, ref(ended))).toBe(ended);
    expect(refusal(() => ownOneshot(null, { oneshotId: 5, deviceId }))).toEqual({ code: 'not_found', message: 'Oneshot 5 does not exist' });
    expect(refusal(() => ownOneshot(ended, ref(ended, otherDevice)))).toEqual({ code: 'not_found', message: 'Oneshot 5 does not exist' });
  });
});

describe('completedOneshot', () => {
  it('ends an outstanding oneshot as completed, now', () => {
    const current = oneshot(5);
    expect(completedOneshot(current, ref(current), now)).toEqual({ ...current, state: 'completed', updatedAt: now });
  });

  it.each(['revoked', 'completed'] as const)('answers conflict for a %s oneshot of this device: it can no longer be submitted', (state) => {
    const current = oneshot(5, state);
    expect(refusal(() => completedOneshot(current, ref(current), now))).toEqual({
      code: 'conflict',
      message: `Oneshot 5 is ${state}; it can no longer be submitted`,
    });
  });

  it("answers not_found for an unknown oneshot and another device's, whatever their state", () => {
    const notFound = { code: 'not_found', message: 'Oneshot 5 does not exist' };
    expect(refusal(() => completedOneshot(null, { oneshotId: 5, deviceId }, now))).toEqual(notFound);
    expect(refusal(() => completedOneshot(oneshot(5), { oneshotId: 5, deviceId: otherDevice }, now))).toEqual(notFound);
    expect(refusal(() => completedOneshot(oneshot(5, 'completed'), { oneshotId: 5, deviceId: otherDevice }, now))).toEqual(notFound);
  });
});

describe('a dispatch scheduled for later', () => {
  const later = '2030-01-03T10:00:00.000Z';
  const scheduled = (id: number, extra: Partial<Oneshot> = {}) => oneshot(id, 'outstanding', { scheduledAt: later, releasedAt: null, ...extra });

  it('is created unreleased when its time is ahead, released at once when it is now or past', () => {
    expect(newOneshot({ ...request, scheduledAt: later }, now)).toMatchObject({ scheduledAt: later, releasedAt: null, state: 'outstanding' });
    expect(newOneshot({ ...request, scheduledAt: now }, now)).toMatchObject({ scheduledAt: now, releasedAt: now });
    expect(newOneshot({ ...request, scheduledAt: created }, now)).toMatchObject({ scheduledAt: created, releasedAt: now });
  });

  it('keeps its time in UTC, whatever offset it was given with, so stores compare times as text', () => {
    expect(newOneshot({ ...request, scheduledAt: '2030-01-03T12:00:00+02:00' }, now)).toMatchObject({ scheduledAt: later, releasedAt: null });
  });

  it('does not exist for its device until released', () => {
    const waiting = scheduled(5);
    expect(refusal(() => outstandingForDevice(waiting, ref(waiting)))).toEqual({ code: 'not_found', message: 'Oneshot 5 does not exist' });
    expect(refusal(() => ownOneshot(waiting, ref(waiting))).code).toBe('not_found');
    expect(refusal(() => completedOneshot(waiting, ref(waiting), now)).code).toBe('not_found');
    // The API side still updates and revokes it.
    expect(outstandingOn(waiting, ref(waiting))).toBe(waiting);
    expect(revokedOneshot(waiting, ref(waiting), now)).toMatchObject({ state: 'revoked', releasedAt: null });
  });

  it('is due once its time has come, unless it ended or was released', () => {
    expect(isDue(scheduled(5), now)).toBe(false);
    expect(isDue(scheduled(5), later)).toBe(true);
    expect(isDue(scheduled(5, { state: 'revoked' }), later)).toBe(false);
    expect(isDue(scheduled(5, { releasedAt: created }), later)).toBe(false);
    expect(isDue(oneshot(5), later)).toBe(false);
  });

  it('release: those due are released at that time; the others are left out', () => {
    const due = scheduled(5);
    const notYet = scheduled(6, { scheduledAt: '2030-01-04T00:00:00.000Z' });
    const revoked = scheduled(7, { state: 'revoked' });
    const releasedBefore = scheduled(8, { releasedAt: created });
    expect(releasedOneshots([due, notYet, revoked, releasedBefore], later)).toEqual([{ ...due, releasedAt: later }]);
  });

  it('update: reschedules it while unreleased, and changes the dispatch fields given', () => {
    const waiting = scheduled(5);
    const change = { payload: {}, scheduledAt: '2030-02-01T00:00:00Z', location: 'lat=35.77, long=-78.63', address: 'Raleigh', geofenceRadius: 150 };
    expect(updatedOneshot(waiting, ref(waiting), change, now)).toMatchObject({
      scheduledAt: '2030-02-01T00:00:00.000Z',
      releasedAt: null,
      location: 'lat=35.77, long=-78.63',
      address: 'Raleigh',
      geofenceRadius: 150,
    });
    expect(updatedOneshot(waiting, ref(waiting), { payload: {} }, now)).toMatchObject({ scheduledAt: later, location: null });
  });

  it('update: a new time for one already delivered is 400; the same time again is accepted', () => {
    const delivered = scheduled(5, { releasedAt: later });
    expect(refusal(() => updatedOneshot(delivered, ref(delivered), { payload: {}, scheduledAt: '2030-02-01T00:00:00Z' }, now))).toEqual({
      code: 'invalid',
      message: 'scheduled_at: dispatch 5 was delivered to its device already; it can no longer be rescheduled',
    });
    expect(refusal(() => updatedOneshot(oneshot(6), ref(oneshot(6)), { payload: {}, scheduledAt: now }, now)).code).toBe('invalid');
    expect(updatedOneshot(delivered, ref(delivered), { payload: {}, scheduledAt: '2030-01-03T11:00:00+01:00' }, now).scheduledAt).toBe(later);
  });
});

describe('existingDispatch and revokedDispatch (v3, by id alone)', () => {
  it('finds the dispatch in any state; unknown is not_found', () => {
    const ended = oneshot(5, 'completed');
    expect(existingDispatch(ended, 5)).toBe(ended);
    expect(refusal(() => existingDispatch(null, 5))).toEqual({ code: 'not_found', message: 'Dispatch 5 does not exist' });
  });

  it('revokes an outstanding one on whichever device it is; an ended one is not_found', () => {
    expect(revokedDispatch(oneshot(5, 'outstanding', { deviceId: otherDevice }), 5, now)).toMatchObject({ state: 'revoked', deviceId: otherDevice, updatedAt: now });
    expect(refusal(() => revokedDispatch(oneshot(5, 'revoked'), 5, now)).code).toBe('not_found');
    expect(refusal(() => revokedDispatch(null, 5, now)).code).toBe('not_found');
  });
});
