import { createOrganization, enrollDevice, type TestDevice } from './support/fixtures';
import { createTemplate, inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Device side: submitting any form (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });

  const submitForm = (device: TestDevice, formId: number, body: object) =>
    sys.api.post(`/device/forms/${formId}/submissions`, { bearer: device.secret, json: body });
  const database = async (formId: number, query = '') => {
    const res = await sys.api.get(`/api/forms/${formId}/device_magic_database.json${query}`, { token: sys.org.token });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('stores a submission of a form of its groups (201) and shows it in the submissions database', async () => {
    const device = await enrollDevice(sys.api, sys.org, { owner: 'Ada Lovelace' });
    const res = await submitForm(device, sys.template.id, {
      answers: { customer_name: 'Acme', visits: { value: '3' }, contact: { phone: '555' }, parts: [{ part_no: 'A1', qty: '2' }], comments: '' },
      submission_identifier: 'dev-1',
      submitted_at: '2030-01-02T10:00:00+02:00',
    });

    expect(res.status).toBe(201);
    const { submission } = res.json();
    expect(submission).toEqual({
      id: expect.any(Number),
      form_id: sys.template.id,
      oneshot_id: null,
      submission_identifier: 'dev-1',
      submitted_at: '2030-01-02T08:00:00.000Z',
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const page = await database(sys.template.id, `?device_id=${device.identifier}`);
    expect(page.submissions).toEqual([
      {
        form: { id: sys.template.id, name: sys.template.name, version: '1.00' },
        metadata: {
          device_id: { value: device.identifier, type: 'string' },
          user_id: { value: null, type: 'string' },
          username: { value: 'Ada Lovelace', type: 'string' },
          submitted_at: { value: '2030-01-02 08:00:00 +00:00', type: 'datetime' },
          received_at: { value: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+00:00$/), type: 'datetime' },
          submission_id: { value: String(submission.id), type: 'integer' },
          device_submission_identifier: { value: 'dev-1', type: 'string' },
          form_name: { value: sys.template.name },
          form_namespace: { value: sys.template.namespace },
          form_version: { value: '1.00' },
          device: { value: {} },
        },
        submission: {
          customer_name: { value: 'Acme', type: 'text' },
          visits: { value: '3', type: 'integer' },
          contact: { value: { phone: { value: '555', type: 'text' } }, type: 'subform' },
          parts: { value: [{ part_no: { value: 'A1', type: 'text' }, qty: { value: '2', type: 'integer' } }], type: 'group' },
          comments: { value: '', type: 'textarea' },
        },
      },
    ]);
  });

  it('answers a retry with the same submission_identifier with the first submission, storing nothing new', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const first = await submitForm(device, sys.template.id, { answers: { customer_name: 'First' }, submission_identifier: 'retry-1' });
    const again = await submitForm(device, sys.template.id, { answers: { customer_name: 'Second' }, submission_identifier: 'retry-1' });
    const other = await enrollDevice(sys.api, sys.org);
    const sameIdOtherDevice = await submitForm(other, sys.template.id, { answers: { customer_name: 'Other' }, submission_identifier: 'retry-1' });

    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(sameIdOtherDevice.json().submission.id).not.toBe(first.json().submission.id);
    const page = await database(sys.template.id, `?device_id=${device.identifier}`);
    expect(page.total_count).toBe(1);
    expect(page.submissions[0].submission).toEqual({ customer_name: { value: 'First', type: 'text' } });
  });

  it('refuses bad answers with a 400 naming the field, and stores nothing', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const refusals: Array<[object, RegExp]> = [
      [{ answers: { visits: 'three' } }, /answers\.visits: must be a whole number/],
      [{ answers: { nope: 'x' } }, /answers\.nope: is not a question of this form/],
      [{ answers: { contact: { floor: '1.5' } } }, /answers\.contact\.floor: must be a whole number/],
      [{ answers: { parts: [{ qty: 'many' }] } }, /answers\.parts\[0\]\.qty: must be a whole number/],
      [{ answers: { photo: 'bm90IGEganBlZw==' } }, /answers\.photo: must be a JPEG image/],
      [{ answers: ['x'] }, /answers: must be an object/],
      [{ answers: {}, submitted_at: 'yesterday' }, /submitted_at: must be an ISO 8601 time/],
      [{ answers: {}, oneshot_id: 'seven' }, /oneshot_id: /],
      [{ answers: {}, submission_identifier: '' }, /submission_identifier: /],
      [{ submission_identifier: 'x' }, /Expected a JSON object \{"answers"/],
    ];
    for (const [body, message] of refusals) {
      const res = await submitForm(device, sys.template.id, body);
      expect([res.status, res.text]).toEqual([400, expect.stringMatching(message)]);
      expect(res.text).toMatch(/^response_type: ERROR\nresponse_code: bad_request\nmessage: /);
    }
    expect((await database(sys.template.id, `?device_id=${device.identifier}`)).total_count).toBe(0);
  });

  it('refuses a form outside its groups (403), and an unknown or another organization’s form (404)', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const elsewhere = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Elsewhere' });
    await sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, json: ['Back office'] });
    const moved = await sys.api.post(`/organizations/${sys.org.orgId}/forms/${elsewhere.id}/properties`, { token: sys.org.token, json: { group: 'Back office' } });
    expect(moved.status).toBe(200);
    const foreign = await createTemplate(sys.api, sys.orgs[1], inspectionForm);

    const outside = await submitForm(device, elsewhere.id, { answers: {} });
    expect(outside.status).toBe(403);
    expect(outside.json().message).toMatch(/form is in none of its groups/);
    expect((await submitForm(device, foreign.id, { answers: {} })).status).toBe(404);
    expect((await submitForm(device, 999999, { answers: {} })).status).toBe(404);
    expect((await submitForm(device, 0, { answers: {} })).status).toBe(404);
    expect((await database(elsewhere.id)).total_count).toBe(0);
  });

  it('completes the outstanding oneshot it names: it leaves the listings, and a second submission of it is 409', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const res = await submitForm(device, sys.template.id, { answers: { customer_name: 'Done' }, oneshot_id: id });

    expect(res.status).toBe(201);
    expect(res.json().submission).toMatchObject({ oneshot_id: id });
    expect((await sys.api.get('/device/oneshots', { bearer: device.secret })).json().oneshots).toEqual([]);
    expect((await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: sys.org.token })).json()).toEqual([]);
    const again = await submitForm(device, sys.template.id, { answers: {}, oneshot_id: id });
    expect(again.status).toBe(409);
    expect((await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: {} } })).status).toBe(409);
  });

  it("refuses a oneshot of another device (404), or pushed from another form (400)", async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const other = await enrollDevice(sys.api, sys.org);
    const theirs = (await pushJson(sys.api, sys.org, other.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const otherForm = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Other form' });
    const mine = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: otherForm.namespace, payload: {} })).json().oneshot_list[0];

    expect((await submitForm(device, sys.template.id, { answers: {}, oneshot_id: theirs.id })).status).toBe(404);
    const wrongForm = await submitForm(device, sys.template.id, { answers: {}, oneshot_id: mine.id });
    expect(wrongForm.status).toBe(400);
    expect(wrongForm.text).toMatch(/oneshot_id: oneshot \d+ is a copy of form \d+/);
    expect((await sys.api.get('/device/oneshots', { bearer: device.secret })).json().oneshots).toHaveLength(1);
  });

  it('keeps POST /device/oneshots/<id>/submission as it was, and records its submission', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const res = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: { customer_name: { value: 'Acme' } } } });

    expect(res.status).toBe(201);
    expect(res.json()).toEqual({ submission: { oneshot_id: id, submitted_at: expect.any(String) } });
    const page = await database(sys.template.id, `?device_id=${device.identifier}`);
    expect(page.submissions.map((s: any) => [Number(s.metadata.submission_id.value) > 0, s.submission])).toEqual([[true, { customer_name: { value: 'Acme', type: 'text' } }]]);
    const bad = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: { visits: 'x' } } });
    expect(bad.status).toBe(400); // checked before the oneshot's state
  });

  it('refuses bad answers to a oneshot with a 400, leaving it outstanding', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const bad = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: { visits: 'many' } } });

    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/answers\.visits: must be a whole number/);
    expect((await sys.api.get(`/device/oneshots/${id}`, { bearer: device.secret })).status).toBe(200);
    expect((await database(sys.template.id, `?device_id=${device.identifier}`)).total_count).toBe(0);
  });

  it('needs the device secret: an API token or nothing is 401', async () => {
    expect((await sys.api.post(`/device/forms/${sys.template.id}/submissions`, { token: sys.org.token, json: { answers: {} } })).status).toBe(401);
    expect((await sys.api.post(`/device/forms/${sys.template.id}/submissions`, { json: { answers: {} } })).status).toBe(401);
    const fresh = await createOrganization(sys.api, sys.adminToken);
    const pending = await enrollDevice(sys.api, fresh, { approve: false });
    expect((await sys.api.post(`/device/forms/${sys.template.id}/submissions`, { bearer: pending.secret, json: { answers: {} } })).status).toBe(403);
  });
});
