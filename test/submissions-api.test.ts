import { randomUUID } from 'node:crypto';
import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, inspectionForm } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Submissions through the API and the submissions database (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });

  const instance = (namespace: string, body: string, id: string | null = randomUUID()) =>
    `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${namespace}'${id === null ? '' : ` submissionIdentifier='${id}'`}>${body}</instance>`;
  const submitV3 = (device: string, payload: unknown, org: TestOrganization = sys.org) =>
    sys.api.post(`/api/v3/devices/${device}/submissions.json`, { token: org.token, json: { payload } });
  const database = (formId: number, query = '', org: TestOrganization = sys.org) =>
    sys.api.get(`/api/forms/${formId}/device_magic_database.json${query}`, { token: org.token });
  const submitted = (device: TestDevice, formId: number, submittedAt: string) =>
    sys.api.post(`/device/forms/${formId}/submissions`, { bearer: device.secret, json: { answers: { customer_name: submittedAt }, submitted_at: submittedAt } });

  describe('POST /api/v3/devices/<device>/submissions.json', () => {
    it('takes the XML instance on behalf of the device: 202 with an empty body, the answers stored', async () => {
      const device = await enrollDevice(sys.api, sys.org, { owner: 'Grace' });
      const xml = instance(
        sys.template.namespace,
        '<customer_name>Acme &amp; Sons</customer_name><visits>4</visits><contact><phone>555</phone></contact><parts><part_no>A1</part_no></parts><comments/>',
        'v3-first',
      );
      const res = await submitV3(device.identifier, xml);

      expect(res.status).toBe(202);
      expect(res.text).toBe('');
      const page = (await database(sys.template.id, `?device_id=${device.identifier}`)).json();
      expect(page.submissions).toEqual([
        expect.objectContaining({
          metadata: expect.objectContaining({
            device_id: { value: device.identifier, type: 'string' },
            username: { value: 'Grace', type: 'string' },
            device_submission_identifier: { value: 'v3-first', type: 'string' },
          }),
          submission: {
            customer_name: { value: 'Acme & Sons', type: 'text' },
            visits: { value: '4', type: 'integer' },
            contact: { value: { phone: { value: '555', type: 'text' } }, type: 'subform' },
            parts: { value: [{ part_no: { value: 'A1', type: 'text' } }], type: 'group' },
            comments: { value: '', type: 'textarea' },
          },
        }),
      ]);
    });

    it('takes the same submissionIdentifier twice as one submission; the device may be named by its id', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const xml = instance(sys.template.namespace, '<customer_name>Once</customer_name>', 'v3-twice');
      expect((await submitV3(device.identifier, xml)).status).toBe(202);
      expect((await submitV3(String(device.id), xml)).status).toBe(202);
      expect((await submitV3(device.identifier, instance(sys.template.namespace, '<customer_name>No id</customer_name>', null))).status).toBe(202);

      const page = (await database(sys.template.id, `?device_id=${device.identifier}`)).json();
      expect(page.total_count).toBe(2);
      expect(page.submissions.map((s: any) => s.submission.customer_name.value)).toEqual(['Once', 'No id']);
    });

    it('refuses a bad body, bad XML or bad answers with a 400, storing nothing', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const refusals: Array<[unknown, RegExp]> = [
        [42, /payload: must be the submission's XML instance/],
        ['not xml', /Malformed XML/],
        ['<!DOCTYPE x [<!ENTITY e "x">]><instance xmlns="urn:x"/>', /DOCTYPE/],
        [`<oneshot xmlns='${sys.template.namespace}'/>`, /root element must be <instance>/],
        ['<instance><customer_name>x</customer_name></instance>', /xmlns, the form's namespace, is required/],
        [instance('http://nowhere.example/form', '<a>1</a>'), /form_namespace: no form of this organization has the namespace/],
        [instance(sys.template.namespace, '<visits>many</visits>'), /answers\.visits: must be a whole number/],
        [instance(sys.template.namespace, '<unknown>x</unknown>'), /answers\.unknown: is not a question of this form/],
      ];
      for (const [payload, message] of refusals) {
        const res = await submitV3(device.identifier, payload);
        expect([res.status, res.text]).toEqual([400, expect.stringMatching(message)]);
      }
      const noPayload = await sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, { token: sys.org.token, json: ['x'] });
      expect(noPayload.status).toBe(400);
      expect((await database(sys.template.id, `?device_id=${device.identifier}`)).json().total_count).toBe(0);
    });

    it('refuses a device waiting for approval (400), and a form outside its groups (403)', async () => {
      const pending = await enrollDevice(sys.api, sys.org, { approve: false });
      const res = await submitV3(pending.identifier, instance(sys.template.namespace, ''));
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/waiting for approval/);

      const device = await enrollDevice(sys.api, sys.org);
      const hidden = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Hidden' });
      await sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, json: ['Hidden forms'] });
      await sys.api.post(`/organizations/${sys.org.orgId}/forms/${hidden.id}/properties`, { token: sys.org.token, json: { group: 'Hidden forms' } });
      expect((await submitV3(device.identifier, instance(hidden.namespace, ''))).status).toBe(403);
    });
  });

  describe('GET /api/v3/submission_authors', () => {
    it("lists the organization's approved devices as authors, in JSON (default) and XML", async () => {
      const org = sys.orgs[1];
      const named = await enrollDevice(sys.api, org, { owner: 'Ada' });
      const unnamed = await enrollDevice(sys.api, org, { owner: '' });
      await enrollDevice(sys.api, org, { approve: false });

      const json = await sys.api.get('/api/v3/submission_authors.json', { token: org.token });
      expect(json.status).toBe(200);
      expect(json.json()).toEqual({
        authors: [
          { identifier: named.identifier, type: 'Device', name: 'Ada', email: null },
          { identifier: unnamed.identifier, type: 'Device', name: unnamed.identifier, email: null },
        ],
      });
      expect((await sys.api.get('/api/v3/submission_authors', { token: org.token })).json()).toEqual(json.json());

      const xml = await sys.api.get('/api/v3/submission_authors.xml', { token: org.token });
      expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(xml.text).toBe(
        [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<authors type="array">',
          '  <author>',
          `    <identifier>${named.identifier}</identifier>`,
          '    <type>Device</type>',
          '    <name>Ada</name>',
          '    <email nil="true"/>',
          '  </author>',
          '  <author>',
          `    <identifier>${unnamed.identifier}</identifier>`,
          '    <type>Device</type>',
          `    <name>${unnamed.identifier}</name>`,
          '    <email nil="true"/>',
          '  </author>',
          '</authors>',
          '',
        ].join('\n'),
      );
    });
  });

  describe('GET /api/forms/<form_id>/device_magic_database.json', () => {
    it('pages with per_page and page, oldest first, in the observed shape', async () => {
      const form = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Paged' });
      const device = await enrollDevice(sys.api, sys.org);
      for (let i = 1; i <= 7; i += 1) expect((await submitted(device, form.id, `2030-01-0${i}T12:00:00Z`)).status).toBe(201);

      const first = (await database(form.id, '?per_page=5')).json();
      expect(first).toMatchObject({ per_page: 5, current_page: 1, total_pages: 2, current_count: 5, total_count: 7 });
      const second = (await database(form.id, '?per_page=5&page=2')).json();
      expect(second).toMatchObject({ per_page: 5, current_page: 2, total_pages: 2, current_count: 2, total_count: 7 });
      const values = (page: any) => page.submissions.map((s: any) => s.submission.customer_name.value);
      expect([...values(first), ...values(second)]).toEqual(Array.from({ length: 7 }, (_, i) => `2030-01-0${i + 1}T12:00:00Z`));
      expect(second.submissions[0].form).toEqual({ id: form.id, name: 'Paged', version: '1.00' });
      expect((await database(form.id, '?per_page=5&page=3')).json()).toMatchObject({ current_page: 3, current_count: 0, submissions: [] });
      expect((await database(form.id)).json()).toMatchObject({ per_page: 30, current_page: 1, total_pages: 1, current_count: 7 });
    });

    it('filters by device and by submission time (strictly after, strictly before; a date is its midnight, UTC)', async () => {
      const form = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Filtered' });
      const [one, two] = [await enrollDevice(sys.api, sys.org), await enrollDevice(sys.api, sys.org)];
      await submitted(one, form.id, '2030-03-01T08:00:00Z');
      await submitted(two, form.id, '2030-03-02T08:00:00Z');
      await submitted(one, form.id, '2030-03-03T08:00:00Z');
      const names = async (query: string) => (await database(form.id, query)).json().submissions.map((s: any) => s.submission.customer_name.value);

      expect(await names(`?device_id=${one.identifier}`)).toEqual(['2030-03-01T08:00:00Z', '2030-03-03T08:00:00Z']);
      expect(await names('?submitted_after=2030-03-01T08:00:00Z')).toEqual(['2030-03-02T08:00:00Z', '2030-03-03T08:00:00Z']);
      expect(await names('?submitted_before=2030-03-03')).toEqual(['2030-03-01T08:00:00Z', '2030-03-02T08:00:00Z']);
      expect(await names(`?submitted_after=2030-03-01T12:00:00%2B02:00&submitted_before=2030-03-03T00:00:00Z`)).toEqual(['2030-03-02T08:00:00Z']);
      expect(await names(`?device_id=${two.identifier}&submitted_after=2030-03-02T08:00:00Z`)).toEqual([]);
      expect(await names('?device_id=Unknown_device')).toEqual([]);
    });

    it('filters by from_date and to_date (inclusive; a date is its whole day), submission_ids and a search of the answers (submission.md)', async () => {
      const form = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Documented filters' });
      const device = await enrollDevice(sys.api, sys.org);
      const made: number[] = [];
      for (const [day, name, phone] of [['01', 'Acme', '111'], ['02', 'Globex', '222'], ['03', 'Initech', 'ACME desk']] as const) {
        const res = await sys.api.post(`/device/forms/${form.id}/submissions`, {
          bearer: device.secret,
          json: { answers: { customer_name: name, contact: { phone } }, submitted_at: `2030-04-${day}T08:00:00Z` },
        });
        expect(res.status).toBe(201);
        made.push(res.json().submission.id);
      }
      const names = async (query: string) => (await database(form.id, query)).json().submissions.map((s: any) => s.submission.customer_name.value);

      expect(await names('?from_date=2030-04-02')).toEqual(['Globex', 'Initech']);
      expect(await names('?to_date=2030-04-02')).toEqual(['Acme', 'Globex']);
      expect(await names('?from_date=2030-04-02T08:00:00Z&to_date=2030-04-02T08:00:00Z')).toEqual(['Globex']);
      expect(await names(`?submission_ids=${made[2]},${made[0]}`)).toEqual(['Acme', 'Initech']);
      expect(await names(`?submission_ids=${made[1]}&search=acme`)).toEqual([]);
      expect(await names('?search=acme')).toEqual(['Acme', 'Initech']);
      expect(await names('?search=%25')).toEqual([]);
      const page = (await database(form.id, '?search=acme&per_page=1')).json();
      expect(page).toMatchObject({ per_page: 1, total_count: 2, total_pages: 2, current_count: 1 });
      expect(page.submissions[0].metadata.submission_id).toEqual({ value: String(made[0]), type: 'integer' });
    });

    it('refuses malformed parameters with a 400 naming them', async () => {
      const refusals: Array<[string, RegExp]> = [
        ['?submitted_after=yesterday', /submitted_after: must be an ISO 8601 date or time/],
        ['?submitted_before=2030-02-30', /submitted_before: must be an ISO 8601 date or time/],
        ['?submitted_after=2030-03-01T08:00:00', /submitted_after: must be an ISO 8601/],
        ['?page=0', /page: must be a positive integer/],
        ['?per_page=abc', /per_page: must be a positive integer/],
        ['?per_page=1001', /per_page: must be at most 1000/],
        ['?device_id=a&device_id=b', /device_id: give it once/],
        ['?from_date=soon', /from_date: must be an ISO 8601 date or time/],
        ['?to_date=2030-13-01', /to_date: must be an ISO 8601 date or time/],
        ['?submission_ids=1,abc', /submission_ids\[1\]: must be a submission id/],
        ['?submission_ids=,', /submission_ids\[0\]: must be a submission id/],
        [`?search=${'x'.repeat(256)}`, /search: /],
      ];
      for (const [query, message] of refusals) {
        const res = await database(sys.template.id, query);
        expect([res.status, res.text]).toEqual([400, expect.stringMatching(message)]);
      }
    });
  });

  describe('tenant isolation and authentication', () => {
    it("answers 404 for another organization's form or device on every new route, as for an unknown one", async () => {
      const [mine, theirs] = sys.orgs;
      const theirForm = await createTemplate(sys.api, theirs, inspectionForm);
      const theirDevice = await enrollDevice(sys.api, theirs);
      const myDevice = await enrollDevice(sys.api, mine);

      expect((await database(theirForm.id, '', mine)).status).toBe(404);
      expect((await database(999999, '', mine)).status).toBe(404);
      expect((await database(theirForm.id, '', theirs)).status).toBe(200);
      expect((await submitV3(theirDevice.identifier, instance(theirForm.namespace, ''), mine)).status).toBe(404);
      expect((await submitV3(String(theirDevice.id), instance(theirForm.namespace, ''), mine)).status).toBe(404);
      // Their form's namespace means nothing in my organization.
      expect((await submitV3(myDevice.identifier, instance(theirForm.namespace, ''), mine)).status).toBe(400);
      expect((await sys.api.post(`/device/forms/${theirForm.id}/submissions`, { bearer: myDevice.secret, json: { answers: {} } })).status).toBe(404);
      const authors = (await sys.api.get('/api/v3/submission_authors.json', { token: mine.token })).json().authors;
      expect(authors.map((a: { identifier: string }) => a.identifier)).not.toContain(theirDevice.identifier);
      expect((await database(theirForm.id, '', theirs)).json().total_count).toBe(0);
    });

    it('asks for the API token (401 with a Basic challenge), and takes no device secret', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      for (const path of [`/api/forms/${sys.template.id}/device_magic_database.json`, '/api/v3/submission_authors.json']) {
        const res = await sys.api.get(path);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
        expect((await sys.api.get(path, { bearer: device.secret })).status).toBe(401);
      }
      const post = await sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, { json: { payload: instance(sys.template.namespace, '') } });
      expect(post.status).toBe(401);
    });
  });
});
