import type { ErrorCode } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { Oneshot, OneshotState, Submission } from '../../src/domain/records';
import { acceptedSubmission, requireFormOfDeviceGroups, type SubmissionRequest } from '../../src/domain/submission-rules';

const now = '2030-01-02T09:30:00.000Z';
const device = { id: 10, orgId: 1, identifier: 'Android_van3', owner: 'Ada', groupIds: [1, 4] };
const form = { id: 7, namespace: 'http://forms.example.com/inspection', name: 'Inspection', version: '1.01', groupId: 4 };
const request: SubmissionRequest = { device, form, oneshotId: null, clientSubmissionId: 'c-1', answers: { site: 'North' } };

function oneshot(id: number, state: OneshotState = 'outstanding', extra: Partial<Oneshot> = {}): Oneshot {
  return {
    id,
    orgId: 1,
    deviceId: device.id,
    deviceIdentifier: device.identifier,
    formId: form.id,
    templateNamespace: form.namespace,
    namespace: `${form.namespace}?0b6f`,
    name: 'Inspection for Acme',
    description: '',
    payload: {},
    state,
    createdAt: '2030-01-01T08:00:00.000Z',
    updatedAt: '2030-01-01T08:00:00.000Z',
    formVersion: form.version,
    scheduledAt: null,
    releasedAt: '2030-01-01T08:00:00.000Z',
    location: null,
    address: null,
    geofenceRadius: null,
    ...extra,
  };
}

const nothing = { oneshot: null, earlier: null };

/** The code and message of what `decide` throws. */
function refusal(decide: () => unknown): { code: ErrorCode; message: string } {
  const error = (() => {
    try {
      decide();
    } catch (thrown: unknown) {
      return thrown;
    }
  })();
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('acceptedSubmission', () => {
  it('makes a submission of a form of the device’s groups, received now, with the device and form as they are', () => {
    expect(acceptedSubmission(nothing, request, now)).toEqual({
      submission: {
        orgId: 1,
        deviceId: 10,
        deviceIdentifier: 'Android_van3',
        deviceOwner: 'Ada',
        formId: 7,
        formNamespace: form.namespace,
        formName: 'Inspection',
        formVersion: '1.01',
        oneshotId: null,
        clientSubmissionId: 'c-1',
        answers: { site: 'North' },
        submittedAt: now,
        receivedAt: now,
      },
      completed: null,
    });
  });

  it('keeps the time the device gives, in UTC', () => {
    const outcome = acceptedSubmission(nothing, { ...request, submittedAt: '2030-01-02T10:00:00+02:00' }, now);
    expect(outcome).toMatchObject({ submission: { submittedAt: '2030-01-02T08:00:00.000Z', receivedAt: now } });
  });

  it('answers with the earlier submission of the same client id, whatever this one says, and saves nothing', () => {
    const earlier = { id: 3, clientSubmissionId: 'c-1' } as Submission;
    expect(acceptedSubmission({ oneshot: null, earlier }, { ...request, form: { ...form, groupId: 99 }, oneshotId: 5 }, now)).toEqual({
      repeated: earlier,
    });
  });

  it('refuses a form in none of the device’s groups (forbidden)', () => {
    expect(refusal(() => acceptedSubmission(nothing, { ...request, form: { ...form, groupId: 2 } }, now))).toEqual({
      code: 'forbidden',
      message: 'Device Android_van3 may not submit form 7: the form is in none of its groups',
    });
  });

  it('completes the outstanding oneshot it names, whatever the groups', () => {
    const pushed = oneshot(5);
    const outcome = acceptedSubmission({ oneshot: pushed, earlier: null }, { ...request, form: { ...form, groupId: 2 }, oneshotId: 5 }, now);
    expect(outcome).toMatchObject({ submission: { oneshotId: 5 }, completed: { ...pushed, state: 'completed', updatedAt: now } });
  });

  it.each(['revoked', 'completed'] as const)('answers conflict for a %s oneshot', (state) => {
    expect(refusal(() => acceptedSubmission({ oneshot: oneshot(5, state), earlier: null }, { ...request, oneshotId: 5 }, now)).code).toBe(
      'conflict',
    );
  });

  it("answers not_found for an unknown oneshot, or another device's", () => {
    const notFound = { code: 'not_found', message: 'Oneshot 5 does not exist' };
    expect(refusal(() => acceptedSubmission(nothing, { ...request, oneshotId: 5 }, now))).toEqual(notFound);
    const theirs = oneshot(5, 'outstanding', { deviceId: 11 });
    expect(refusal(() => acceptedSubmission({ oneshot: theirs, earlier: null }, { ...request, oneshotId: 5 }, now))).toEqual(notFound);
  });

  it('refuses a oneshot pushed from another form', () => {
    const other = oneshot(5, 'outstanding', { formId: 8 });
    expect(refusal(() => acceptedSubmission({ oneshot: other, earlier: null }, { ...request, oneshotId: 5 }, now))).toEqual({
      code: 'invalid',
      message: 'oneshot_id: oneshot 5 is a copy of form 8, not of form 7',
    });
  });
});

describe('requireFormOfDeviceGroups', () => {
  it('lets a device submit the forms of any of its groups', () => {
    expect(() => requireFormOfDeviceGroups(device, form)).not.toThrow();
    expect(() => requireFormOfDeviceGroups(device, { ...form, groupId: 1 })).not.toThrow();
    expect(() => requireFormOfDeviceGroups({ ...device, groupIds: [] }, form)).toThrow(AppError);
  });
});
