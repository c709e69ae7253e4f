import { randomUUID } from 'node:crypto';
import { waitFor } from '@formcast/testing';
import { enrollDevice, type TestDevice } from './support/fixtures';
import { createTemplate, type TestTemplate } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { WebhookReceiver } from './support/webhook-receiver';

const textForm = (title: string, ...questions: string[]) => ({
  type: 'root',
  title,
  children: questions.map((identifier) => ({ identifier, title: identifier, type: 'text' })),
});

jest.setTimeout(60_000);

/**
 * The v3 submission API as the product's documentation and its own instances show it
 * (v3/devices/submission*.md, v3/submission.md): answers inside `<inputs>`, the `.xml` path
 * with a JSON body naming `form_namespace` and `submission_identifier`, and `destination_ids`
 * choosing which of the form's destinations get the submission.
 */
describe.each(systemModes)('v3 submissions: <inputs>, .xml, destination_ids (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let receiver: WebhookReceiver;
  let device: TestDevice;
  let form: TestTemplate;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    form = await createTemplate(sys.api, sys.org, textForm(`Inputs ${mode}`, 'customer_name', 'notes'));
  });
  afterAll(() => receiver?.close());

  const instance = (body: string, id: string | null = randomUUID(), namespace: string | null = form.namespace) =>
    `<?xml version='1.0' encoding='UTF-8'?><instance${namespace === null ? '' : ` xmlns='${namespace}'`}${id === null ? '' : ` submissionIdentifier='${id}'`}>${body}</instance>`;
  const submit = (json: object, suffix = '.json', org = sys.org) =>
    sys.api.post(`/api/v3/devices/${device.identifier}/submissions${suffix}`, { token: org.token, json });
  const stored = async () => {
    const page = (await sys.api.get(`/api/forms/${form.id}/device_magic_database.json?per_page=1000`, { token: sys.org.token })).json();
    return page.submissions.map((s: any) => ({ id: s.metadata.device_submission_identifier.value, answers: s.submission }));
  };
  async function destination(path: string): Promise<number> {
    const res = await sys.api.post(`/api/forms/${form.id}/destinations.json`, {
      token: sys.org.token,
      json: { destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, json_format: {}, http_transport: { uri: receiver.url(path) } },
    });
    expect(res.status).toBe(201);
    return res.json().destination.id;
  }

  it('takes the answers inside <inputs>, as GET /api/v3/submissions/<id> shows them, and stores them as answers', async () => {
    const res = await submit({ payload: instance('<inputs><customer_name>Acme</customer_name><notes/></inputs>', 'inputs-1') });
    expect([res.status, res.text]).toEqual([202, '']);
    expect(await stored()).toContainEqual({ id: 'inputs-1', answers: { customer_name: { value: 'Acme', type: 'text' }, notes: { value: '', type: 'text' } } });

    // What the API gives back is accepted as a submission again (another identifier): the round trip of the form's own instance.
    const page = (await sys.api.get(`/api/forms/${form.id}/device_magic_database.json?search=Acme`, { token: sys.org.token })).json();
    const id = page.submissions.find((s: any) => s.metadata.device_submission_identifier.value === 'inputs-1').metadata.submission_id.value;
    const xml = (await sys.api.get(`/api/v3/submissions/${id}.xml`, { token: sys.org.token })).text;
    const again = await submit({ payload: xml.replace('submissionIdentifier="inputs-1"', 'submissionIdentifier="inputs-2"') });
    expect(again.status).toBe(202);
    expect(await stored()).toContainEqual({ id: 'inputs-2', answers: { customer_name: { value: 'Acme', type: 'text' }, notes: { value: '', type: 'text' } } });
  });

  it('refuses what is not an answer inside <inputs>, storing nothing', async () => {
    const before = (await stored()).length;
    const res = await submit({ payload: instance('<inputs><unknown>x</unknown></inputs>') });
    expect([res.status, res.text]).toEqual([400, expect.stringMatching(/answers\.unknown: is not a question of this form/)]);
    const twice = await submit({ payload: instance('<inputs><customer_name>A</customer_name></inputs><notes>n</notes>') });
    expect([twice.status, twice.text]).toEqual([400, expect.stringMatching(/answers\.inputs: is not a question of this form/)]);
    expect((await stored()).length).toBe(before);
  });

  it('takes the .xml path with the JSON body submission-xml.md shows: form_namespace and submission_identifier beside the payload', async () => {
    const res = await submit({ form_namespace: form.namespace, submission_identifier: 'xml-path-1', payload: instance('<customer_name>Xml</customer_name>', null, null) }, '.xml');
    expect([res.status, res.text]).toEqual([202, '']);
    expect(await stored()).toContainEqual({ id: 'xml-path-1', answers: { customer_name: { value: 'Xml', type: 'text' } } });

    const before = (await stored()).length;
    const clash = await submit({ form_namespace: 'http://elsewhere.example/x', payload: instance('<customer_name>X</customer_name>') }, '.xml');
    expect([clash.status, clash.text]).toEqual([400, expect.stringMatching(/form_namespace: differs from the instance's xmlns/)]);
    const idClash = await submit({ submission_identifier: 'other', payload: instance('<customer_name>X</customer_name>', 'mine') });
    expect([idClash.status, idClash.text]).toEqual([400, expect.stringMatching(/submission_identifier: differs/)]);
    expect((await stored()).length).toBe(before);
  });

  it('delivers to the destinations destination_ids names, and only to them; without it, to every active one', async () => {
    const paths = [`/v3-ids/${mode}/a`, `/v3-ids/${mode}/b`];
    const [a, b] = [await destination(paths[0]!), await destination(paths[1]!)];

    expect((await submit({ payload: instance('<customer_name>Only A</customer_name>'), destination_ids: [a] })).status).toBe(202);
    expect((await submit({ payload: instance('<customer_name>Both</customer_name>') })).status).toBe(202);
    expect((await submit({ payload: instance('<customer_name>B by text</customer_name>'), destination_ids: `${b}` })).status).toBe(202);

    const names = (path: string) => receiver.received(path).map((hook) => JSON.parse(hook.body).answers.customer_name.value);
    await waitFor(() => receiver.received(paths[0]!).length >= 2 && receiver.received(paths[1]!).length >= 2, { timeoutMs: 20_000 });
    // The last submission to B came after the others: once it is there, nothing else is on its way to A.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received(paths[0]!)).toHaveLength(2);
    expect(receiver.received(paths[1]!)).toHaveLength(2);
    expect(names(paths[0]!).sort()).toEqual(['Both', 'Only A']);
    expect(names(paths[1]!).sort()).toEqual(['B by text', 'Both']);
  });

  it("refuses destination_ids that are not the form's destinations (another form's, another organization's, unknown, malformed), storing nothing", async () => {
    const other = await createTemplate(sys.api, sys.org, textForm(`Other ${mode}`, 'x'));
    const otherDestination = (
      await sys.api.post(`/api/forms/${other.id}/destinations.json`, {
        token: sys.org.token,
        json: { destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, json_format: {}, http_transport: { uri: receiver.url('/never') } },
      })
    ).json().destination.id;
    const before = (await stored()).length;
    const refusals: Array<[unknown, RegExp]> = [
      [[otherDestination], /destination_ids\[0\]: \d+ is not a destination of the form/],
      [[999999], /destination_ids\[0\]: 999999 is not a destination/],
      [['abc'], /destination_ids\[0\]: must be a destination id/],
      [[], /destination_ids: give 1 to 100/],
      [[1.5], /destination_ids\[0\]: must be a destination id/],
    ];
    for (const [ids, message] of refusals) {
      const res = await submit({ payload: instance('<customer_name>Refused</customer_name>'), destination_ids: ids });
      expect([res.status, res.text]).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await stored()).length).toBe(before);
    expect(receiver.received('/never')).toHaveLength(0);
  });

  it("answers 404 for another organization's device, whatever the body", async () => {
    const theirs = await enrollDevice(sys.api, sys.orgs[1]);
    const res = await sys.api.post(`/api/v3/devices/${theirs.identifier}/submissions.xml`, { token: sys.org.token, json: { payload: instance('<inputs/>'), destination_ids: ['bad'] } });
    expect(res.status).toBe(404);
  });
});
