import type { Submission } from '../../src/domain/records';
import { answersInFormOrder, toSubmissionInstanceView } from '../../src/domain/submission-instance';
import { storedSubmission } from '../support/submission-fixtures';

const questions = [
  { identifier: 'customer_name', type: 'text' },
  { identifier: 'contact', type: 'subform', children: [{ identifier: 'phone', type: 'text' }, { identifier: 'floor', type: 'integer' }] },
  { identifier: 'parts', type: 'group', children: [{ identifier: 'part_no', type: 'text' }, { identifier: 'qty', type: 'integer' }] },
  { identifier: 'comments', type: 'textarea' },
];

describe('answersInFormOrder', () => {
  it('puts answers in the order of the form’s questions, within subforms and every group repetition too', () => {
    const stored = {
      comments: '',
      parts: [{ qty: '2', part_no: 'A1' }, { part_no: 'B7' }],
      contact: { floor: '4', phone: '555' },
      customer_name: 'Acme',
    };
    const ordered = answersInFormOrder(stored, questions);

    expect(ordered).toEqual(stored);
    expect(Object.keys(ordered)).toEqual(['customer_name', 'contact', 'parts', 'comments']);
    expect(Object.keys(ordered['contact'] as object)).toEqual(['phone', 'floor']);
    expect((ordered['parts'] as object[]).map((repetition) => Object.keys(repetition))).toEqual([['part_no', 'qty'], ['part_no']]);
  });

  it('keeps answers to questions the form no longer has, after the others, in the order stored', () => {
    const ordered = answersInFormOrder({ dropped_later: 'x', comments: 'c', removed: 'y', customer_name: 'n' }, questions);
    expect(Object.entries(ordered)).toEqual([
      ['customer_name', 'n'],
      ['comments', 'c'],
      ['dropped_later', 'x'],
      ['removed', 'y'],
    ]);
  });

  it('keeps the stored order when the form is gone (null), and ignores malformed question entries', () => {
    const stored = { comments: 'c', customer_name: 'n' };
    expect(Object.keys(answersInFormOrder(stored, null))).toEqual(['comments', 'customer_name']);
    expect(Object.keys(answersInFormOrder(stored, [null, 7, { type: 'text' }, { identifier: 'customer_name' }]))).toEqual(['customer_name', 'comments']);
  });
});

describe('toSubmissionInstanceView', () => {
  const submission: Submission = {
    ...storedSubmission,
    oneshotId: null,
    answers: { comments: 'ok', customer_name: 'Acme' },
  };

  it('names the form, the device and both times, with the answers in the form’s order', () => {
    const view = toSubmissionInstanceView(submission, questions);
    expect(view).toEqual({
      id: 12,
      form_id: 7,
      form_name: 'Inspection',
      form_namespace: 'http://forms.example.com/inspection',
      form_version: '1.01',
      device_identifier: 'Android_van3',
      submission_identifier: 'c-1',
      submitted_at: '2030-01-02T09:25:49.120Z',
      received_at: '2030-01-02T09:25:50.000Z',
      answers: { customer_name: 'Acme', comments: 'ok' },
    });
    expect(Object.keys(view.answers)).toEqual(['customer_name', 'comments']);
  });
});
