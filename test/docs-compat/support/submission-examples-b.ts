import { randomUUID } from 'node:crypto';
import { enrollDevice, type TestDevice } from '../../support/fixtures';
import { createTemplate, type TestTemplate } from '../../support/push-fixtures';
import { systemModes } from '../../support/start-system';
import { useSystem } from '../../support/use-system';
import { anyKeys, expectJsonShape, expectXmlShape } from './doc-shape-b';

/**
 * The submission docs' examples (doc/api/submission.md and the v3 submission files, every
 * version), their shapes as the documentation shows them: the values are the example's own,
 * cut to one element per array (the shape check holds every element to the first).
 */
export const databaseExample = {
  per_page: 5,
  current_page: 1,
  total_pages: 2,
  current_count: 5,
  total_count: 7,
  submissions: [
    {
      form: { id: 441, name: 'Simple Test Form', version: '1.00' },
      metadata: {
        device_id: { value: 'iPhone_1', type: 'string' },
        user_id: { value: null, type: 'string' },
        username: { value: 'Matty6s', type: 'string' },
        submitted_at: { value: '2016-05-04 11:25:49 +02:00', type: 'datetime' },
        received_at: { value: '2016-05-04 09:25:49 +00:00', type: 'datetime' },
        submission_id: { value: '233', type: 'integer' },
        device_submission_identifier: { value: 'A8F925ED-52E0-4243-AD25-E0EDBB051A3F', type: 'integer' },
        form_name: { value: 'Simple Test Form' },
        form_namespace: { value: 'https://www.devicemagic.com/xforms/9be7df80-f407-0133-d8cb-14109fd23119' },
        form_version: { value: '1.00' },
        // The example shows `{"a": null}`: a device's attributes, whatever their names.
        device: { value: anyKeys(null) },
      },
      // Keyed by the form's question identifiers (`Basic_Question`…); a subform's value nests answers of this shape.
      submission: anyKeys({ value: null, type: 'text' }),
    },
  ],
};

export const authorsJsonExample = { authors: [{ identifier: 'iPhone_1234-123-86D82C7F7119', type: 'Device', name: 'Iphone', email: null }] };

export const authorsXmlExample = `<?xml version="1.0" encoding="UTF-8"?>
<authors type="array"><author><identifier>iPhone_65AD03C2</identifier><type>Device</type><name>Iphone</name><email/></author></authors>`;

export const instanceXmlExample = `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<instance xmlns="http://www.devicemagic.com/xforms/12345678" xmlns:dm="http://mobileforms.devicemagic.com/xforms" submissionIdentifier="1" submittingDevice="Android_1" writeTime="2023-02-02T10:25:46.103-0500" formVersion="1.00" dm:submit_time="2023-02-25T19:08:40Z" dm:form="Test Form" dm:form_id="123" dm:form_version="1.00"><inputs><Question1>Answer1</Question1><Question2>Answer2</Question2></inputs></instance>`;

/** The documented request body: the form's namespace and a fresh identifier where the example has placeholders. */
export const documentedSubmissionBody = (namespace: string, identifier: string) => ({
  payload: `<?xml version='1.0' encoding='UTF-8'?>\n<instance xmlns='${namespace}' submissionIdentifier='${identifier}'>\n<a>\n<b>88562-4446</b>\n</a>\n</instance>`,
});

/** The example's form: question `a`, a subform of `b` (what the documented instance answers). */
const exampleForm = (title: string) => ({
  type: 'root',
  title,
  children: [
    { identifier: 'a', title: 'A', type: 'subform', children: [{ identifier: 'b', title: 'B', type: 'text' }] },
    { identifier: 'Question1', title: 'Question 1', type: 'text' },
    { identifier: 'Question2', title: 'Question 2', type: 'text' },
  ],
});

/** What a doc file shows; each part present gets its tests. */
export interface SubmissionDocSections {
  /** GET api/forms/:form_id/device_magic_database.json */
  database?: boolean;
  /** GET /api/v3/submission_authors.json / .xml */
  authorsJson?: boolean;
  authorsXml?: boolean;
  /** GET /api/v3/submissions/:id */
  instanceXml?: boolean;
  /** POST /api/v3/devices/:device/submissions<suffix> with the documented body: 202, empty. */
  devicePost?: Array<'.json' | '.xml'>;
  /** POST /api/v3/users/:user/submissions.json: Formcast has no web users (404, nothing stored). */
  userPost?: boolean;
}

/** The doc file's examples against Formcast, in every mode. */
export function describeSubmissionDocExamples(doc: string, sections: SubmissionDocSections): void {
  describe.each(systemModes)(`${doc}: the documented examples (%s)`, (mode) => {
    const sys = useSystem(mode, { organizations: 2 });
    let device: TestDevice;
    let form: TestTemplate;

    beforeAll(async () => {
      device = await enrollDevice(sys.api, sys.org, { owner: 'Matty6s' });
      form = await createTemplate(sys.api, sys.org, exampleForm(`${doc} ${mode}`));
    });

    const submitDocumented = async (suffix: '.json' | '.xml' = '.json', identifier: string = randomUUID()) =>
      sys.api.post(`/api/v3/devices/${device.identifier}/submissions${suffix}`, { token: sys.org.token, json: documentedSubmissionBody(form.namespace, identifier) });
    const database = async () => (await sys.api.get(`/api/forms/${form.id}/device_magic_database.json`, { token: sys.org.token })).json();

    for (const suffix of sections.devicePost ?? []) {
      it(`POST /api/v3/devices/:device_identifier/submissions${suffix} with the documented body: 202, empty body, stored`, async () => {
        const identifier = randomUUID();
        const res = await submitDocumented(suffix, identifier);
        expect([res.status, res.text]).toEqual([202, '']);
        const stored = (await database()).submissions.filter((s: any) => s.metadata.device_submission_identifier.value === identifier);
        expect(stored.map((s: any) => s.submission)).toEqual([{ a: { value: { b: { value: '88562-4446', type: 'text' } }, type: 'subform' } }]);
      });
    }

    if (sections.userPost) {
      it('POST /api/v3/users/:user_id/submissions.json: 404, Formcast has no web users; nothing stored', async () => {
        const before = (await database()).total_count;
        const res = await sys.api.post('/api/v3/users/1/submissions.json', { token: sys.org.token, json: documentedSubmissionBody(form.namespace, randomUUID()) });
        expect(res.status).toBe(404);
        expect((await database()).total_count).toBe(before);
      });
    }

    if (sections.database) {
      it('GET api/forms/:form_id/device_magic_database.json answers in the example\'s shape (per_page 30 unless asked)', async () => {
        expect((await submitDocumented()).status).toBe(202);
        const res = await sys.api.get(`/api/forms/${form.id}/device_magic_database.json`, { token: sys.org.token });
        expect(res.status).toBe(200);
        const page = res.json();
        expect(page.submissions.length).toBeGreaterThan(0);
        expectJsonShape(page, databaseExample);
        expect(page.per_page).toBe(30);
        // The documented query parameters are taken.
        const query = `?page=1&per_page=5&from_date=2000-01-01&to_date=2100-01-01&submission_ids=${page.submissions[0].metadata.submission_id.value}&device_id=${device.identifier}&search=88562`;
        const filtered = await sys.api.get(`/api/forms/${form.id}/device_magic_database.json${query}`, { token: sys.org.token });
        expect(filtered.status).toBe(200);
        expectJsonShape(filtered.json(), databaseExample);
        expect(filtered.json().total_count).toBe(1);
      });
    }

    if (sections.authorsJson) {
      it('GET /api/v3/submission_authors.json answers in the example\'s shape', async () => {
        const res = await sys.api.get('/api/v3/submission_authors.json', { token: sys.org.token });
        expect(res.status).toBe(200);
        expect(res.json().authors.length).toBeGreaterThan(0);
        expectJsonShape(res.json(), authorsJsonExample);
      });
    }

    if (sections.authorsXml) {
      it('GET /api/v3/submission_authors.xml answers in the example\'s shape', async () => {
        const res = await sys.api.get('/api/v3/submission_authors.xml', { token: sys.org.token });
        expect(res.status).toBe(200);
        expectXmlShape(res.text, authorsXmlExample);
      });
    }

    if (sections.instanceXml) {
      it('GET /api/v3/submissions/:submission_id answers the instance in the example\'s shape; another organization\'s is 404', async () => {
        const identifier = randomUUID();
        const body = { payload: `<instance xmlns='${form.namespace}' submissionIdentifier='${identifier}'><inputs><Question1>Answer1</Question1><Question2>Answer2</Question2></inputs></instance>` };
        expect((await sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, { token: sys.org.token, json: body })).status).toBe(202);
        const record = (await database()).submissions.find((s: any) => s.metadata.device_submission_identifier.value === identifier);
        const res = await sys.api.get(`/api/v3/submissions/${record.metadata.submission_id.value}`, { token: sys.org.token });
        expect(res.status).toBe(200);
        expectXmlShape(res.text, instanceXmlExample);
        expect((await sys.api.get(`/api/v3/submissions/${record.metadata.submission_id.value}`, { token: sys.orgs[1].token })).status).toBe(404);
      });
    }
  });
}
