import { createEnvelope, pushCommands, type ResolvedForm, type SubmissionInstanceView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { DirectoryLookup } from '../../src/directory-cache/directory-lookup';
import type { PushDeps } from '../../src/handlers/deps';
import { getSubmission } from '../../src/handlers/get-submission';
import { submitForm } from '../../src/handlers/submit-form';
import { SqlitePushStore } from '../../src/store';
import { device, form, orgId } from '../support/submission-fixtures';
import { appErrorOf } from '@formcast/testing';

/** The submission read over a real store, the directory answering from fixtures. */

const otherOrgId = 2;

let formLookup: () => Promise<ResolvedForm>;
const directory = {
  device: async () => device,
  form: async () => form,
  formById: async () => formLookup(),
} as unknown as DirectoryLookup;

let store: SqlitePushStore;
let deps: PushDeps;

beforeEach(() => {
  store = new SqlitePushStore(':memory:');
  deps = { store, directory, eventsWritten: () => undefined };
  formLookup = async () => form;
});

afterEach(() => store.close());

async function submitted(answers: Record<string, unknown>): Promise<number> {
  const view = (await submitForm(deps)(
    createEnvelope(pushCommands.submitForm, { deviceRef: String(device.id), formId: form.id, answers, submission_identifier: 'c-1', submitted_at: '2030-01-02T09:25:49Z' }, { orgId }),
  )) as { id: number };
  return view.id;
}

const read = (submissionId: unknown, org = orgId) =>
  getSubmission(deps)(createEnvelope(pushCommands.getSubmission, { submissionId }, { orgId: org })) as Promise<SubmissionInstanceView>;


it('answers the submission with its form, device, times and answers in the form’s order', async () => {
  const id = await submitted({ visits: '3', site: 'North' });
  const view = await read(id);

  expect(view).toEqual({
    id,
    form_id: 7,
    form_name: 'Inspection',
    form_namespace: form.namespace,
    form_version: '1.02',
    device_identifier: 'Android_van3',
    submission_identifier: 'c-1',
    submitted_at: '2030-01-02T09:25:49.000Z',
    received_at: expect.any(String),
    answers: { site: 'North', visits: '3' },
  });
  expect(Object.keys(view.answers)).toEqual(['site', 'visits']);
});

it('answers 404 for an unknown id and for another organization’s submission', async () => {
  const id = await submitted({ site: 'North' });
  expect(await appErrorOf(read(id + 1))).toEqual({ code: 'not_found', message: `Submission ${id + 1} does not exist` });
  expect(await appErrorOf(read(id, otherOrgId))).toEqual({ code: 'not_found', message: `Submission ${id} does not exist` });
});

it('refuses an id that is not a positive integer as invalid', async () => {
  expect((await appErrorOf(read('1'))).code).toBe('invalid');
  expect((await appErrorOf(read(0))).code).toBe('invalid');
});

it('still answers once its form is deleted, the answers in the order stored', async () => {
  const id = await submitted({ visits: '3', site: 'North' });
  formLookup = () => Promise.reject(new AppError('not_found', 'Form 7 does not exist'));
  const view = await read(id);
  expect(view.form_name).toBe('Inspection');
  expect(Object.keys(view.answers)).toEqual(['visits', 'site']);
});

it('fails rather than guess when the directory cannot be asked', async () => {
  const id = await submitted({ site: 'North' });
  formLookup = () => Promise.reject(new AppError('unavailable', 'directory down'));
  expect((await appErrorOf(read(id))).code).toBe('unavailable');
});
