import type { ResolvedDevice, ResolvedForm } from '@formcast/contracts';
import type { Submission } from '../../src/domain/records';

/** The organization, device and form the submission handler tests submit with. */
export const orgId = 1;

export const device: ResolvedDevice = { id: 10, orgId, identifier: 'Android_van3', owner: 'Ada', pendingApproval: false, pushToken: null, groupIds: [1] };

export const form: ResolvedForm = {
  id: 7,
  orgId,
  namespace: 'http://forms.example.com/inspection',
  name: 'Inspection',
  version: '1.02',
  groupId: 1,
  questions: [
    { identifier: 'site', type: 'text' },
    { identifier: 'visits', type: 'integer' },
  ],
};

/** A stored submission of `form` by `device`, completing oneshot 5 (tests change what they need). */
export const storedSubmission: Submission = {
  id: 12,
  orgId,
  deviceId: device.id,
  deviceIdentifier: device.identifier,
  deviceOwner: device.owner,
  formId: form.id,
  formNamespace: form.namespace,
  formName: form.name,
  formVersion: '1.01',
  oneshotId: 5,
  clientSubmissionId: 'c-1',
  answers: { site: 'North', parts: [{ part_no: 'A1' }] },
  submittedAt: '2030-01-02T09:25:49.120Z',
  receivedAt: '2030-01-02T09:25:50.000Z',
};
