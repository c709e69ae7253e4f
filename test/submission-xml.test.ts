import { randomUUID } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { waitFor } from '@formcast/testing';
import type { ApiResponse } from './support/api-client';
import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { httpDestinationBody, makeDestination } from './support/delivery-fixtures';
import { createTemplate, inspectionForm, pushJson, type TestTemplate } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

const dmNamespace = 'http://mobileforms.devicemagic.com/xforms';

/** A form whose name needs escaping in an attribute. */
const specialForm = { ...inspectionForm, title: `Test & <Form> "Q" it's` };

/** The documented attributes, in the documented order. */
const documentedAttributes = [
  'xmlns',
  'xmlns:dm',
  'submissionIdentifier',
  'submittingDevice',
  'writeTime',
  'formVersion',
  'dm:submit_time',
  'dm:form',
  'dm:form_id',
  'dm:form_version',
  'dm:submitting_device',
];

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  // A group's repetitions are repeated elements: always a list here, even of one.
  isArray: (_name, path) => path === 'instance.inputs.parts',
});

interface ParsedInstance {
  attributes: Record<string, string>;
  inputs: Record<string, unknown>;
}

function parseInstance(res: ApiResponse): ParsedInstance {
  expect([res.status, res.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^application\/xml/)]);
  const document = xmlParser.parse(res.text);
  expect(Object.keys(document)).toEqual(['instance']);
  const { inputs, ...attributes } = document.instance;
  expect(Object.keys(attributes).every((name) => name.startsWith('@_'))).toBe(true);
  return {
    attributes: Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name.slice(2), value as string])),
    inputs: inputs === '' ? {} : inputs,
  };
}

/** "2016-05-04 09:25:49 +00:00": how the submissions database API shows a time. */
const productTime = (iso: string) => {
  const utc = new Date(iso).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 19)} +00:00`;
};

interface DatabaseRecord {
  form: { id: number; name: string; version: string };
  metadata: Record<string, { value: any }>;
  submission: Record<string, { value: unknown; type: string }>;
}

/** A typed answer's value, its subforms' and groups' answers unwrapped too. */
const untyped = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(untyped);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([question, answer]) => [question, untyped((answer as { value: unknown }).value)]));
  }
  return value;
};

/** The submissions database API's answers, `{"value": x, "type": t}` unwrapped: what the XML's inputs must say. */
const databaseAnswers = (record: DatabaseRecord) => untyped(record.submission) as Record<string, unknown>;

describe.each(systemModes)('A submission as XML: GET /api/v3/submissions/<id> (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: specialForm, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });

  const instance = (namespace: string, body: string, id: string | null) =>
    `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${namespace}'${id === null ? '' : ` submissionIdentifier='${id}'`}>${body}</instance>`;
  const submitV3 = (device: TestDevice, xml: string) =>
    sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, { token: sys.org.token, json: { payload: xml } });
  const submitJson = (device: TestDevice, form: TestTemplate, body: object) =>
    sys.api.post(`/device/forms/${form.id}/submissions`, { bearer: device.secret, json: body });
  const submissionXml = (id: number | string, org: TestOrganization = sys.org, suffix = '') =>
    sys.api.get(`/api/v3/submissions/${id}${suffix}`, { token: org.token });

  /** The device's submissions of the form in the submissions database API, oldest first. */
  async function databaseRecords(form: TestTemplate, device: TestDevice): Promise<DatabaseRecord[]> {
    const res = await sys.api.get(`/api/forms/${form.id}/device_magic_database.json?device_id=${device.identifier}`, { token: sys.org.token });
    expect(res.status).toBe(200);
    return res.json().submissions;
  }

  /** Every documented attribute, in order, saying what the database API says of the same submission. */
  function expectDocumentedAttributes(attributes: Record<string, string>, form: TestTemplate, device: TestDevice, record: DatabaseRecord) {
    const submissionIdentifier = record.metadata['device_submission_identifier']!.value as string | null;
    expect(attributes).toEqual({
      xmlns: form.namespace,
      'xmlns:dm': dmNamespace,
      ...(submissionIdentifier === null ? {} : { submissionIdentifier }),
      submittingDevice: device.identifier,
      writeTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      formVersion: '1.00',
      'dm:submit_time': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      'dm:form': form.name,
      'dm:form_id': String(form.id),
      'dm:form_version': '1.00',
      'dm:submitting_device': device.identifier,
    });
    expect(Object.keys(attributes)).toEqual(documentedAttributes.filter((name) => name in attributes));
    expect(productTime(attributes['writeTime']!)).toBe(record.metadata['submitted_at']!.value);
    expect(productTime(attributes['dm:submit_time']!)).toBe(record.metadata['received_at']!.value);
    expect(record.form).toEqual({ id: form.id, name: form.name, version: '1.00' });
  }

  it('gives back a submission sent as XML on v3: every documented attribute, its inputs (subform, group repetitions, escaped text) as the database API shows them', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const clientId = randomUUID();
    const xml = instance(
      sys.template.namespace,
      '<parts><part_no>A&amp;1</part_no><qty>2</qty></parts><parts><part_no>B7</part_no></parts>' +
        '<customer_name>Acme &amp; &lt;Sons&gt; "quoted" \'single\' ]]&gt; 👍</customer_name>' +
        '<contact><phone>555</phone><floor>4</floor></contact>' +
        '<visits>3</visits><comments/>',
      clientId,
    );
    expect((await submitV3(device, xml)).status).toBe(202);
    const [record] = await databaseRecords(sys.template, device);

    const res = await submissionXml(record!.metadata['submission_id']!.value);
    const { attributes, inputs } = parseInstance(res);

    expect(sys.template.name).toBe(specialForm.title);
    expectDocumentedAttributes(attributes, sys.template, device, record!);
    expect(attributes['submissionIdentifier']).toBe(clientId);
    expect(inputs).toEqual({
      customer_name: `Acme & <Sons> "quoted" 'single' ]]> 👍`,
      contact: { phone: '555', floor: '4' },
      parts: [{ part_no: 'A&1', qty: '2' }, { part_no: 'B7' }],
      visits: '3',
      comments: '',
    });
    expect(inputs).toEqual(databaseAnswers(record!));
    // The form's question order, whatever order the device sent them in.
    expect(Object.keys(inputs)).toEqual(['customer_name', 'comments', 'visits', 'contact', 'parts']);
    expect(res.text).toContain('&lt;Sons&gt;');
    expect((await submissionXml(record!.metadata['submission_id']!.value, sys.org, '.xml')).text).toBe(res.text);
  });

  it('gives back a submission sent as JSON on the device side the same way: {"value": x} as x, one group repetition as one element, submitted_at as writeTime', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const submitted = await submitJson(device, sys.template, {
      answers: {
        parts: [{ qty: '1', part_no: 'P<1>' }],
        contact: { floor: { value: '2' }, phone: '0800 & more' },
        status: { value: 'open' },
        customer_name: 'Zoë "Z" O\'Neil\nsecond line',
        urgent: null,
      },
      submission_identifier: 'json-1',
      submitted_at: '2030-06-01T10:20:30+02:00',
    });
    expect(submitted.status).toBe(201);
    const submissionId: number = submitted.json().submission.id;
    const [record] = await databaseRecords(sys.template, device);
    expect(record!.metadata['submission_id']!.value).toBe(String(submissionId));

    const { attributes, inputs } = parseInstance(await submissionXml(submissionId));

    expectDocumentedAttributes(attributes, sys.template, device, record!);
    expect(attributes['submissionIdentifier']).toBe('json-1');
    expect(attributes['writeTime']).toBe('2030-06-01T08:20:30.000Z');
    expect(inputs).toEqual({
      customer_name: 'Zoë "Z" O\'Neil\nsecond line',
      status: 'open',
      contact: { phone: '0800 & more', floor: '2' },
      parts: [{ part_no: 'P<1>', qty: '1' }],
    });
    expect(inputs).toEqual(databaseAnswers(record!));
    expect(Object.keys(inputs)).toEqual(['customer_name', 'status', 'contact', 'parts']);
    expect(Object.keys(inputs['contact'] as object)).toEqual(['phone', 'floor']);
  });

  it('leaves out submissionIdentifier when the client gave none (a oneshot completed on the device), every other attribute present', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const pushed = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: { customer_name: 'Pre-filled' } });
    expect(pushed.status).toBe(202);
    const oneshotId: number = pushed.json().oneshot_list[0].id;
    const completed = await sys.api.post(`/device/oneshots/${oneshotId}/submission`, { bearer: device.secret, json: { answers: { customer_name: 'Done' } } });
    expect(completed.status).toBe(201);
    const [record] = await databaseRecords(sys.template, device);

    const { attributes, inputs } = parseInstance(await submissionXml(record!.metadata['submission_id']!.value));

    expect(attributes['submissionIdentifier']).toBeUndefined();
    expectDocumentedAttributes(attributes, sys.template, device, record!);
    expect(inputs).toEqual({ customer_name: 'Done' });
  });

  it('still gives a submission once its form is deleted, naming the form as it was', async () => {
    const form = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Short-lived' });
    const device = await enrollDevice(sys.api, sys.org);
    const submitted = await submitJson(device, form, { answers: { visits: '9', customer_name: 'Kept' }, submission_identifier: 'kept-1' });
    expect(submitted.status).toBe(201);
    const [record] = await databaseRecords(form, device);
    expect((await sys.api.delete(`/organizations/${sys.org.orgId}/forms/${form.id}`, { token: sys.org.token })).status).toBe(200);

    const { attributes, inputs } = parseInstance(await submissionXml(submitted.json().submission.id));

    expectDocumentedAttributes(attributes, form, device, record!);
    expect(inputs).toEqual({ visits: '9', customer_name: 'Kept' });
    // No form left to order them by: the order they were sent and stored in.
    expect(Object.keys(inputs)).toEqual(['visits', 'customer_name']);
  });

  describe('and as the XML webhook body: the same bytes, one writer', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
    });
    afterAll(() => receiver?.close());

    /** A form of its own with an xml_format destination at `path`: every submission of it arrives there. */
    async function formDeliveredTo(path: string): Promise<TestTemplate> {
      const form = await createTemplate(sys.api, sys.org, { ...specialForm, title: `${specialForm.title} ${path}` });
      await makeDestination(sys.api, sys.org, form.id, httpDestinationBody(receiver.url(path), { format: 'xml_format', description: 'instance' }));
      return form;
    }

    const arrivals = (path: string, count: number): Promise<ReceivedWebhook[]> =>
      waitFor(() => (receiver.received(path).length >= count ? receiver.received(path) : undefined), { description: `${count} webhook(s) at ${path}`, timeoutMs: 15_000 });

    it('sends each submission, however it came, as the bytes GET /api/v3/submissions/<id> answers', async () => {
      const path = `/instances/${mode}`;
      const form = await formDeliveredTo(path);
      const device = await enrollDevice(sys.api, sys.org);
      const ids: number[] = [];

      // As JSON on the device side, answers out of the form's order, {"value": x} and text that needs escaping.
      const json = await submitJson(device, form, {
        answers: { parts: [{ qty: '1', part_no: 'P<1>' }, { part_no: 'Q&2' }], contact: { floor: { value: '2' }, phone: '0800' }, customer_name: `Zoë "Z" <O'Neil>\nline 2`, comments: '' },
        submission_identifier: `both-${mode}`,
        submitted_at: '2030-06-01T10:20:30+02:00',
      });
      expect(json.status).toBe(201);
      ids.push(json.json().submission.id);
      // As an XML instance on v3 without a submissionIdentifier.
      expect((await submitV3(device, instance(form.namespace, '<visits>3</visits><customer_name>Acme &amp; Co</customer_name>', null))).status).toBe(202);
      // Completing a pushed oneshot.
      const pushed = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: form.namespace, payload: {} });
      expect(pushed.status).toBe(202);
      const completed = await sys.api.post(`/device/oneshots/${pushed.json().oneshot_list[0].id}/submission`, {
        bearer: device.secret,
        json: { answers: { comments: 'done', customer_name: 'Oneshot' } },
      });
      expect(completed.status).toBe(201);

      const received = await arrivals(path, 3);
      const records = await databaseRecords(form, device);
      expect(records).toHaveLength(3);
      for (const record of records) ids.push(record.metadata['submission_id']!.value);
      const texts = received.map((request) => request.body);
      expect(received.map((request) => request.headers['content-type'])).toEqual(Array(3).fill('application/xml'));
      for (const id of new Set(ids)) {
        const fetched = await submissionXml(id);
        expect(fetched.status).toBe(200);
        expect(texts).toContain(fetched.text);
      }
      // The cases that used to differ: no client id (no attribute either way) and the form's order.
      expect(texts.filter((text) => !text.includes('submissionIdentifier='))).toHaveLength(2);
      expect(texts.find((text) => text.includes(`submissionIdentifier="both-${mode}"`))).toContain(
        `<inputs><customer_name>Zoë &quot;Z&quot; &lt;O&apos;Neil&gt;\nline 2</customer_name><comments/><contact><phone>0800</phone><floor>2</floor></contact>` +
          '<parts><part_no>P&lt;1&gt;</part_no><qty>1</qty></parts><parts><part_no>Q&amp;2</part_no></parts></inputs></instance>',
      );
    });
  });

  it("answers 404 for another organization's submission, an unknown or non-numeric id and any suffix but .xml; 401 with a Basic challenge without the API token", async () => {
    const [mine, theirs] = sys.orgs;
    const theirForm = await createTemplate(sys.api, theirs, inspectionForm);
    const theirDevice = await enrollDevice(sys.api, theirs);
    const theirs1 = await sys.api.post(`/device/forms/${theirForm.id}/submissions`, { bearer: theirDevice.secret, json: { answers: { customer_name: 'Private' } } });
    expect(theirs1.status).toBe(201);
    const theirId: number = theirs1.json().submission.id;

    expect((await submissionXml(theirId, theirs)).status).toBe(200);
    for (const [id, suffix] of [
      [theirId, ''],
      [theirId, '.xml'],
      [999999999, ''],
      ['abc', ''],
      ['0', ''],
      ['-1', '.xml'],
      ['1e3', ''],
    ] as const) {
      const res = await submissionXml(id, mine, suffix);
      expect([res.status, res.text]).toEqual([404, expect.not.stringContaining('Private')]);
    }
    for (const suffix of ['.json', '.html', '.xml.json']) expect((await submissionXml(theirId, theirs, suffix)).status).toBe(404);

    const anonymous = await sys.api.get(`/api/v3/submissions/${theirId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await sys.api.get(`/api/v3/submissions/${theirId}.xml`, { bearer: theirDevice.secret })).status).toBe(401);
  });
});
