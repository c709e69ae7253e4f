import type { ResolvedDevice, ResolvedForm } from '@formcast/contracts';

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
