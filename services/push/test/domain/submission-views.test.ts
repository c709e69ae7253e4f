import { submissionEvents, submissionReceivedPayload } from '@formcast/contracts';
import { submissionReceivedEvent } from '../../src/domain/submission-events';
import { submissionQuery } from '../../src/domain/submission-query';
import { storedSubmission } from '../support/submission-fixtures';
import { productTime, toDatabasePageView, toFormSubmissionView, toSubmissionView } from '../../src/domain/views';

const submission = storedSubmission;

describe('submission views', () => {
  it('answers the oneshot route as before, and the form route with the submission’s ids and times', () => {
    expect(toSubmissionView(submission)).toEqual({ oneshot_id: 5, submitted_at: submission.submittedAt });
    expect(toFormSubmissionView(submission)).toEqual({
      id: 12,
      form_id: 7,
      oneshot_id: 5,
      submission_identifier: 'c-1',
      submitted_at: submission.submittedAt,
      received_at: submission.receivedAt,
    });
  });

  it('shows times as the real product does, in UTC', () => {
    expect(productTime('2016-05-04T11:25:49.500+02:00')).toBe('2016-05-04 09:25:49 +00:00');
  });

  it('pages the submissions database in submission.md\'s shape: typed answers, the documented metadata', () => {
    const questions = [
      { identifier: 'site', type: 'text' },
      { identifier: 'parts', type: 'group', children: [{ identifier: 'part_no', type: 'integer' }] },
    ];
    const page = toDatabasePageView({ total: 7, submissions: [submission] }, 2, 5, questions, new Map([['Android_van3', { fleet: 'north' }]]));
    expect(page).toEqual({
      per_page: 5,
      current_page: 2,
      total_pages: 2,
      current_count: 1,
      total_count: 7,
      submissions: [
        {
          form: { id: 7, name: 'Inspection', version: '1.01' },
          metadata: {
            device_id: { value: 'Android_van3', type: 'string' },
            user_id: { value: null, type: 'string' },
            username: { value: 'Ada', type: 'string' },
            submitted_at: { value: '2030-01-02 09:25:49 +00:00', type: 'datetime' },
            received_at: { value: '2030-01-02 09:25:50 +00:00', type: 'datetime' },
            submission_id: { value: '12', type: 'integer' },
            device_submission_identifier: { value: 'c-1', type: 'string' },
            form_name: { value: 'Inspection' },
            form_namespace: { value: submission.formNamespace },
            form_version: { value: '1.01' },
            device: { value: { fleet: 'north' } },
          },
          submission: {
            site: { value: 'North', type: 'text' },
            parts: { value: [{ part_no: { value: 'A1', type: 'integer' } }], type: 'group' },
          },
        },
      ],
    });
    expect(toDatabasePageView({ total: 0, submissions: [] }, 1, 100, [])).toMatchObject({ total_pages: 0, current_count: 0, total_count: 0 });
  });

  it('types an answer no question names any more as text, and shows no device attributes for a device gone', () => {
    const [record] = toDatabasePageView({ total: 1, submissions: [{ ...submission, answers: { gone: 'x' } }] }, 1, 5, null).submissions;
    expect(record!.submission).toEqual({ gone: { value: 'x', type: 'text' } });
    expect(record!.metadata.device).toEqual({ value: {} });
  });
});

describe('submissionQuery', () => {
  it('turns a page into an offset, and times into the stored format (a date is its midnight, UTC)', () => {
    expect(
      submissionQuery({ formId: 7, page: 3, per_page: 20, device_id: 'Android_1', submitted_after: '2030-01-02', submitted_before: '2030-01-02T12:00:00+01:00' }),
    ).toEqual({
      formId: 7,
      deviceIdentifier: 'Android_1',
      submittedAfter: '2030-01-02T00:00:00.000Z',
      submittedBefore: '2030-01-02T11:00:00.000Z',
      offset: 40,
      limit: 20,
    });
    expect(submissionQuery({ formId: 7, page: 1, per_page: 100 })).toEqual({ formId: 7, offset: 0, limit: 100 });
  });

  it('takes from_date at or after its start and to_date to the end of its day; a search gets the form\'s answer paths', () => {
    const questions = [{ identifier: 'site', type: 'text' }, { identifier: 'visit', type: 'subform', children: [{ identifier: 'notes', type: 'text' }] }];
    expect(submissionQuery({ formId: 7, page: 1, per_page: 30, from_date: '2030-01-02', to_date: '2030-01-03', submission_ids: [4, 5], search: 'acme' }, questions)).toEqual({
      formId: 7,
      submittedFrom: '2030-01-02T00:00:00.000Z',
      submittedTo: '2030-01-03T23:59:59.999Z',
      ids: [4, 5],
      search: 'acme',
      searchPaths: ['site', 'visit.notes'],
      offset: 0,
      limit: 30,
    });
    expect(submissionQuery({ formId: 7, page: 1, per_page: 30, to_date: '2030-01-03T10:00:00Z' }).submittedTo).toBe('2030-01-03T10:00:00.000Z');
  });
});

describe('submissionReceivedEvent', () => {
  it('carries the whole submission as the contract says, for its organization and request', () => {
    const event = submissionReceivedEvent('req-1')(submission);
    expect(event).toMatchObject({ type: submissionEvents.submissionReceived, orgId: 1, requestId: 'req-1' });
    expect(submissionReceivedPayload.parse(event.payload)).toEqual({
      submissionId: 12,
      orgId: 1,
      deviceId: 10,
      deviceIdentifier: 'Android_van3',
      deviceOwner: 'Ada',
      formId: 7,
      formName: 'Inspection',
      formNamespace: submission.formNamespace,
      formVersion: '1.01',
      oneshotId: 5,
      clientSubmissionId: 'c-1',
      submittedAt: submission.submittedAt,
      receivedAt: submission.receivedAt,
      answers: submission.answers,
    });
  });

  it("carries the answers in the form's question order, as GET /api/v3/submissions/<id> shows them", () => {
    const questions = [
      { identifier: 'parts', type: 'group', children: [{ identifier: 'part_no', type: 'text' }, { identifier: 'qty', type: 'integer' }] },
      { identifier: 'site', type: 'text' },
    ];
    const { answers } = submissionReceivedEvent('req-1', questions)({ ...submission, answers: { site: 'North', parts: [{ qty: '2', part_no: 'A1' }] } }).payload;
    expect(Object.keys(answers)).toEqual(['parts', 'site']);
    expect(Object.keys((answers['parts'] as object[])[0]!)).toEqual(['part_no', 'qty']);
  });
});
