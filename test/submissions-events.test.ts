import type { Bus } from '@formcast/bus';
import { submissionEvents, submissionReceivedPayload, type Envelope, type SubmissionReceivedPayload } from '@formcast/contracts';
import { serviceStarters } from '@formcast/embedded';
import { parsePayload, type ServiceStarter } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { enrollDevice } from './support/fixtures';
import { inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** A bus peer of the test's own that keeps every `push.submission.received` it hears. */
function submissionListener() {
  const heard: Array<Envelope<SubmissionReceivedPayload>> = [];
  const name = 'e2e-submission-listener';
  const start: ServiceStarter<Bus> = async ({ bus }) => {
    bus.subscribe(name, submissionEvents.submissionReceived, async (event) => {
      heard.push({ ...event, payload: parsePayload(submissionReceivedPayload, event.payload) });
    });
    return { name, ping: async () => undefined, stop: async () => undefined };
  };
  return { start, heard };
}

describe.each(systemModes)('push.submission.received over the bus (%s)', (mode) => {
  const listener = submissionListener();
  const sys = useSystem(mode, { organizations: 1, template: inspectionForm, starters: [...serviceStarters, listener.start] });

  const heardOf = (submissionId: number) => listener.heard.filter((event) => event.payload.submissionId === submissionId);

  it('publishes exactly one event per submission, however it came and however often it was sent', async () => {
    const device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    const { id: oneshotId } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const submitForm = (body: object) => sys.api.post(`/device/forms/${sys.template.id}/submissions`, { bearer: device.secret, json: body });
    const v3 = (id: string) =>
      sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, {
        token: sys.org.token,
        json: { payload: `<instance xmlns='${sys.template.namespace}' submissionIdentifier='${id}'><customer_name>v3</customer_name></instance>` },
      });

    // Each sent twice: the second is answered from the first, and publishes nothing.
    const retried = await submitForm({ answers: { customer_name: 'Retried' }, submission_identifier: 'events-1' });
    expect((await submitForm({ answers: { customer_name: 'Retried' }, submission_identifier: 'events-1' })).json()).toEqual(retried.json());
    expect((await v3('events-v3')).status).toBe(202);
    expect((await v3('events-v3')).status).toBe(202);
    const completing = await sys.api.post(`/device/oneshots/${oneshotId}/submission`, { bearer: device.secret, json: { answers: { customer_name: 'Pushed' } } });
    expect(completing.status).toBe(201);
    expect((await sys.api.post(`/device/oneshots/${oneshotId}/submission`, { bearer: device.secret, json: { answers: {} } })).status).toBe(409);
    // Refused ones publish nothing either.
    expect((await submitForm({ answers: { visits: 'many' } })).status).toBe(400);
    // The last: once its event is heard, those written before it have gone out too (the relay publishes in order).
    const last = (await submitForm({ answers: { customer_name: 'Last' } })).json().submission;

    await waitFor(() => heardOf(last.id).length > 0, { timeoutMs: 10_000 });
    const page = (await sys.api.get(`/api/forms/${sys.template.id}/device_magic_database.json?device_id=${device.identifier}`, { token: sys.org.token })).json();
    const submissionIds = page.submissions.map((s: any) => Number(s.metadata.submission_id.value));
    expect(page.total_count).toBe(4);
    const heard = listener.heard.filter((event) => event.payload.deviceId === device.id);
    expect(heard.map((event) => event.payload.submissionId).sort((a, b) => a - b)).toEqual(submissionIds);
    for (const id of submissionIds) expect(heardOf(id)).toHaveLength(1);

    const pushed = heard.find((event) => event.payload.oneshotId === oneshotId);
    expect(pushed).toMatchObject({
      type: submissionEvents.submissionReceived,
      orgId: sys.org.orgId,
      payload: {
        orgId: sys.org.orgId,
        deviceId: device.id,
        deviceIdentifier: device.identifier,
        deviceOwner: 'Ada',
        formId: sys.template.id,
        formName: sys.template.name,
        formNamespace: sys.template.namespace,
        formVersion: '1.00',
        oneshotId,
        clientSubmissionId: null,
        answers: { customer_name: 'Pushed' },
      },
    });
    expect(heard.find((event) => event.payload.clientSubmissionId === 'events-v3')?.payload.answers).toEqual({ customer_name: 'v3' });
    expect(heardOf(retried.json().submission.id)[0]!.payload).toMatchObject({ clientSubmissionId: 'events-1', oneshotId: null });
  });
});
