import { createEnvelope, pushCommands, pushEvents, submissionEvents, type ResolvedForm } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { DirectoryLookup } from '../../src/directory-cache/directory-lookup';
import { createOneshot } from '../../src/handlers/create-oneshot';
import type { PushDeps } from '../../src/handlers/deps';
import { deviceSubmitOneshot } from '../../src/handlers/device-submit-oneshot';
import { listFormSubmissions } from '../../src/handlers/list-form-submissions';
import { submitForm } from '../../src/handlers/submit-form';
import { SqlitePushStore } from '../../src/store';
import { device, form, orgId } from '../support/submission-fixtures';
import { appErrorOf } from '@formcast/testing';

/** The submission handlers over a real store, the directory answering from fixtures. */

const elsewhere: ResolvedForm = { ...form, id: 8, namespace: 'http://forms.example.com/elsewhere', groupId: 2 };
const forms = [form, elsewhere];

const notFound = () => new AppError('not_found', 'not in the fixtures');
const directory = {
  device: async () => device,
  form: async (_org: number, namespace: string) => forms.find((f) => f.namespace === namespace) ?? Promise.reject(notFound()),
  formById: async (_org: number, id: number) => forms.find((f) => f.id === id) ?? Promise.reject(notFound()),
} as unknown as DirectoryLookup;

let store: SqlitePushStore;
let deps: PushDeps;
let wakes = 0;

beforeEach(() => {
  store = new SqlitePushStore(':memory:');
  wakes = 0;
  deps = { store, directory, eventsWritten: () => (wakes += 1) };
});

afterEach(() => store.close());

const submit = (payload: Record<string, unknown>) =>
  submitForm(deps)(createEnvelope(pushCommands.submitForm, { deviceRef: String(device.id), ...payload }, { orgId })) as Promise<Record<string, unknown>>;

async function eventTypes(): Promise<string[]> {
  return (await store.unpublishedEvents(1000)).map((entry) => entry.event.type);
}


async function stored(formId = form.id) {
  return store.listSubmissions(orgId, { formId, offset: 0, limit: 100 });
}

it('stores a submission of a form of the device’s groups, by id or namespace, and publishes it', async () => {
  const byId = await submit({ formId: form.id, answers: { site: { value: 'North' }, visits: '2' }, submission_identifier: 'c-1' });
  const byNamespace = await submit({ form_namespace: form.namespace, answers: { site: 'South' }, fromXml: true });

  expect(byId).toEqual({
    id: 1,
    form_id: 7,
    oneshot_id: null,
    submission_identifier: 'c-1',
    submitted_at: expect.any(String),
    received_at: expect.any(String),
  });
  expect(byNamespace).toMatchObject({ id: 2, submission_identifier: null });
  expect((await stored()).submissions.map((s) => s.answers)).toEqual([{ site: 'North', visits: '2' }, { site: 'South' }]);
  expect(await eventTypes()).toEqual([submissionEvents.submissionReceived, submissionEvents.submissionReceived]);
  expect(wakes).toBe(2);
});

it('answers a retry with the same submission identifier with the first submission, storing and publishing nothing new', async () => {
  const first = await submit({ formId: form.id, answers: { site: 'North' }, submission_identifier: 'c-1' });
  const again = await submit({ formId: form.id, answers: { site: 'Changed' }, submission_identifier: 'c-1' });

  expect(again).toEqual(first);
  expect((await stored()).total).toBe(1);
  expect(await eventTypes()).toHaveLength(1);
});

it('refuses bad answers with a message naming the field, storing nothing', async () => {
  expect(await appErrorOf(submit({ formId: form.id, answers: { visits: 'three' } }))).toEqual({
    code: 'invalid',
    message: 'answers.visits: must be a whole number',
  });
  expect((await appErrorOf(submit({ formId: form.id, answers: { sight: 'x' } }))).message).toBe('answers.sight: is not a question of this form');
  expect((await appErrorOf(submit({ formId: form.id, answers: 'x' }))).message).toBe('answers: must be an object of question names to values');
  expect((await appErrorOf(submit({ formId: form.id, submitted_at: 'yesterday', answers: {} }))).message).toMatch(/^submitted_at: /);
  expect((await stored()).total).toBe(0);
  expect(await eventTypes()).toEqual([]);
});

it('refuses a form in none of the device’s groups (403), an unknown id (404) and an unknown namespace (400)', async () => {
  expect((await appErrorOf(submit({ formId: elsewhere.id, answers: {} }))).code).toBe('forbidden');
  expect((await appErrorOf(submit({ formId: 99, answers: {} }))).code).toBe('not_found');
  expect(await appErrorOf(submit({ form_namespace: 'http://nowhere', answers: {} }))).toEqual({
    code: 'invalid',
    message: 'form_namespace: no form of this organization has the namespace http://nowhere',
  });
  expect((await appErrorOf(submit({ answers: {} }))).message).toBe('name the form by formId or by form_namespace');
  expect((await stored(elsewhere.id)).total).toBe(0);
});

it('completes the outstanding oneshot it names, once; the oneshot route answers as before', async () => {
  const push = (formNamespace: string) =>
    createOneshot(deps)(createEnvelope(pushCommands.createOneshot, { deviceRef: device.identifier, form_namespace: formNamespace, payload: {} }, { orgId })) as Promise<{
      id: number;
    }>;
  const pushed = await push(form.namespace);
  const submission = await submit({ formId: form.id, oneshot_id: pushed.id, answers: { site: 'Done' } });
  expect(submission).toMatchObject({ oneshot_id: pushed.id });
  expect((await store.get(orgId, pushed.id))?.state).toBe('completed');
  expect((await appErrorOf(submit({ formId: form.id, oneshot_id: pushed.id, answers: {} }))).code).toBe('conflict');

  // A oneshot of a form outside the device's groups can be submitted: pushing chose the device.
  const other = await push(elsewhere.namespace);
  const viaOneshotRoute = await deviceSubmitOneshot(deps)(
    createEnvelope(pushCommands.deviceSubmitOneshot, { deviceId: device.id, oneshotId: other.id, answers: { site: { value: 'Done' } } }, { orgId }),
  );
  expect(viaOneshotRoute).toEqual({ oneshot_id: other.id, submitted_at: expect.any(String) });
  expect((await stored(elsewhere.id)).submissions).toMatchObject([{ oneshotId: other.id, answers: { site: 'Done' }, formVersion: '1.02' }]);
  expect(await eventTypes()).toEqual([
    pushEvents.oneshotCreated,
    pushEvents.oneshotCompleted,
    submissionEvents.submissionReceived,
    pushEvents.oneshotCreated,
    pushEvents.oneshotCompleted,
    submissionEvents.submissionReceived,
  ]);
});

it('lists a form’s submissions a page at a time; an unknown form is 404', async () => {
  for (const site of ['a', 'b', 'c']) await submit({ formId: form.id, answers: { site } });
  const list = (payload: Record<string, unknown>) =>
    listFormSubmissions(deps)(createEnvelope(pushCommands.listFormSubmissions, payload, { orgId })) as Promise<Record<string, unknown>>;

  expect(await list({ formId: form.id, per_page: 2, page: 2 })).toMatchObject({
    per_page: 2,
    current_page: 2,
    total_pages: 2,
    current_count: 1,
    total_count: 3,
    submissions: [{ submission: { site: { value: 'c', type: 'text' } } }],
  });
  expect((await list({ formId: form.id, search: 'B' })).submissions).toMatchObject([{ submission: { site: { value: 'b' } } }]);
  expect((await appErrorOf(list({ formId: 99 }))).code).toBe('not_found');
  expect((await appErrorOf(list({ formId: form.id, submitted_after: '2030-13-01' }))).message).toMatch(/^submitted_after: must be an ISO 8601/);
});
