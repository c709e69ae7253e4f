import { enrollDevice, type TestDevice } from './support/fixtures';
import { inspectionForm, pushJson, tinyJpegBase64, tinyPngBase64 } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Push validation: 4xx naming the field, nothing stored (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1, template: inspectionForm });
  let device: TestDevice;

  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org);
  });
  afterEach(async () => {
    // nothing a refused request sent was stored
    const left = await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: sys.org.token });
    for (const o of left.json() as Array<{ id: number }>) {
      await sys.api.delete(`/clients/${device.identifier}/oneshots/${o.id}`, { token: sys.org.token });
    }
  });

  const push = (payload: unknown, extra: object = {}) => pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload, ...extra });

  it('accepts a payload using every kind of question', async () => {
    const res = await push({
      customer_name: 'Acme',
      comments: 'Multi\nline',
      visits: '3',
      price: '12.50',
      urgent: 'true',
      due: '2026-12-24',
      arrive: '08:30',
      starts: '2026-12-24T08:30:00Z',
      status: 'open',
      photo: tinyJpegBase64,
      sketch: tinyJpegBase64,
      site: 'lat=-33.8688, long=151.2093',
      contact: { phone: '555-0100', floor: '4' },
      parts: [{ part_no: 'A-1', qty: '2' }, { part_no: 'B-7' }],
    });
    expect(res.status).toBe(202);
    const stored = (await sys.api.get(`/device/oneshots/${res.json().oneshot_list[0].id}`, { bearer: device.secret })).json().oneshot.payload;
    expect(stored.parts).toEqual([{ part_no: 'A-1', qty: '2' }, { part_no: 'B-7' }]);
  });

  it.each([
    ['an unknown question', { nope: 'x' }, /payload\.nope: is not a question/],
    ['__proto__ as a key', JSON.parse('{"__proto__": {"customer_name": "x"}}'), /payload\.__proto__: is not a question/],
    ['an operator object as a value', { customer_name: { $gt: '' } }, /payload\.customer_name: must be a string/],
    ['a number instead of a string', { visits: 3 }, /payload\.visits: must be a string/],
    ['a non-integer', { visits: 'three' }, /payload\.visits: must be a whole number/],
    ['a non-decimal', { price: '12,50' }, /payload\.price: must be a decimal/],
    ['a non-boolean', { urgent: 'maybe' }, /payload\.urgent: must be true or false/],
    ['an impossible date', { due: '2026-02-30' }, /payload\.due: must be a date/],
    ['a bad time', { arrive: '25:00' }, /payload\.arrive: must be a time/],
    ['a choice not offered', { status: 'pending' }, /payload\.status: must be one of open, closed/],
    ['a PNG for an image', { photo: tinyPngBase64 }, /payload\.photo: must be a JPEG/],
    ['invalid Base64 for a sketch', { sketch: '@@not base64@@' }, /payload\.sketch: must be Base64/],
    ['a latitude out of range', { site: 'lat=91, long=0' }, /payload\.site: latitude/],
    ['a malformed location', { site: '51.5,-0.1' }, /payload\.site: must be "lat=/],
    ['a string for a subform', { contact: 'x' }, /payload\.contact: must be an object/],
    ['an unknown question in a subform', { contact: { fax: '1' } }, /payload\.contact\.fax: is not a question/],
    ['an object for a repeating group', { parts: { part_no: 'A' } }, /payload\.parts: must be an array/],
    ['a bad value in a repetition', { parts: [{ qty: 'many' }] }, /payload\.parts\[0\]\.qty: must be a whole number/],
    ['an array as the payload', ['x'], /payload: must be an object/],
  ])('refuses %s', async (_name, payload, message) => {
    const res = await push(payload);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(message);
  });

  it('refuses a description over 255 characters, in JSON and XML', async () => {
    const json = await push({}, { form_description: 'x'.repeat(256) });
    expect(json.status).toBe(400);
    expect(json.text).toMatch(/form_description: .*255/);
    const xml = await sys.api.post(`/clients/${device.identifier}/oneshots`, {
      token: sys.org.token,
      xml: `<oneshot xmlns:dm="http://mobileforms.devicemagic.com/xforms"><dm:form_namespace>${sys.template.namespace}</dm:form_namespace><dm:form_description>${'y'.repeat(256)}</dm:form_description></oneshot>`,
    });
    expect(xml.status).toBe(400);
    expect(xml.text).toMatch(/form_description/);
  });

  it('refuses a missing payload or namespace, and a namespace that is not one of our forms', async () => {
    const noPayload = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace });
    expect(noPayload.status).toBe(400);
    expect(noPayload.text).toMatch(/payload: is required/);
    const noNamespace = await pushJson(sys.api, sys.org, device.identifier, { payload: {} });
    expect(noNamespace.status).toBe(400);
    expect(noNamespace.text).toMatch(/form_namespace/);
    const foreign = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: 'http://elsewhere.example/xforms/1', payload: {} });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toMatch(/form_namespace: no form of this organization/);
  });

  it('refuses an unknown device (404) and a device waiting for approval (400)', async () => {
    expect((await pushJson(sys.api, sys.org, 'Android_nobody', { form_namespace: sys.template.namespace, payload: {} })).status).toBe(404);
    const pending = await enrollDevice(sys.api, sys.org, { approve: false });
    const res = await pushJson(sys.api, sys.org, pending.identifier, { form_namespace: sys.template.namespace, payload: {} });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/waiting for approval/);
  });

  it('refuses hostile or malformed XML bodies', async () => {
    for (const [xml, message] of [
      [`<!DOCTYPE x [<!ENTITY a "b">]><oneshot><form_namespace>&a;</form_namespace></oneshot>`, /DOCTYPE/],
      ['<oneshot><form_namespace>x</oneshot>', /Malformed XML/],
      ['<push><form_namespace>x</form_namespace></push>', /<oneshot>/],
      [`<oneshot><zz:form_namespace>${sys.template.namespace}</zz:form_namespace></oneshot>`, /prefix "zz" is not declared/],
    ] as const) {
      const res = await sys.api.post(`/clients/${device.identifier}/oneshots`, { token: sys.org.token, xml });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(message);
    }
  });

  it('refuses wrong types in an update, leaving the oneshot as it was', async () => {
    const { id } = (await push({ customer_name: 'Kept' })).json().oneshot_list[0];
    for (const body of [{ payload: { visits: 'x' } }, { payload: 'x' }, { form_name: 7, payload: {} }, {}]) {
      const res = await sys.api.put(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token, json: body });
      expect(res.status).toBe(400);
    }
    expect((await sys.api.get(`/device/oneshots/${id}`, { bearer: device.secret })).json().oneshot.payload).toEqual({ customer_name: 'Kept' });
  });
});
