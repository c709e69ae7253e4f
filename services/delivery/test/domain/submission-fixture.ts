import type { SubmissionReceivedPayload } from '@formcast/contracts';

/** A submission as push announces it, for the domain's and the service's tests. */
export function submission(overrides: Partial<SubmissionReceivedPayload> = {}): SubmissionReceivedPayload {
  return {
    submissionId: 41,
    orgId: 3,
    deviceId: 5,
    deviceIdentifier: 'Android_1',
    deviceOwner: 'Ada',
    formId: 9,
    formName: 'Site inspection',
    formNamespace: 'http://formcast.local/xforms/abc',
    formVersion: '1.02',
    oneshotId: 12,
    clientSubmissionId: '7d3e0d7c-1a57-4b2a-9d8e-3f6c2b1a0e11',
    submittedAt: '2026-05-04T09:25:49.000Z',
    receivedAt: '2026-05-04T09:25:50.120Z',
    answers: {
      customer_name: 'Acme & Sons <ltd>',
      visits: '3',
      contact: { phone: '555-0100', floor: '2' },
      parts: [
        { part_no: 'A1', qty: '2' },
        { part_no: 'B7', qty: '1' },
      ],
    },
    ...overrides,
  };
}
