import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { XMLValidator } from 'fast-xml-parser';
import type { ApiResponse } from './support/api-client';
import { enrollDevice, type TestDevice } from './support/fixtures';
import { inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** `[[…]]`: `depth` levels of arrays. */
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A valid form whose one question carries an extra property, the whole body `depth` levels deep. */
const formNestedTo = (depth: number, title = 'Deep') =>
  `{"type":"root","title":"${title}","children":[{"identifier":"q","type":"text","extra":${arrays(depth - 3)}}]}`;

const notCompressed = Buffer.from('{"this body":"is not compressed, whatever its header says"}');

function expectRefusal(res: ApiResponse, status: number, message: RegExp | string): void {
  expect({ status: res.status, text: res.text }).toEqual({ status, text: expect.stringMatching(message) });
}

describe.each(systemModes)('Text XML cannot carry, deep nesting and compressed bodies (%s)', (mode) => {
  const sys = useSystem(mode, {
    env: { BODY_LIMIT_BYTES: '262144', RESOURCE_MAX_BYTES: '100000' },
    organizations: 1,
    template: inspectionForm,
  });
  let device: TestDevice;

  const orgPath = (rest: string) => `/organizations/${sys.org.orgId}${rest}`;
  const get = (path: string) => sys.api.get(path, { token: sys.org.token });
  const expectXmlParses = async (path: string) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(XMLValidator.validate(res.text)).toBe(true);
    return res.text;
  };
  /** Every listing a bad write could reach, as text: compared before and after each refusal. */
  const listings = async () => ({
    groups: (await get(orgPath('/groups.json'))).text,
    devices: (await get(orgPath('/devices.json'))).text,
    forms: (await get(orgPath('/forms.json'))).text,
    oneshots: (await get(orgPath('/oneshots.json'))).text,
    resources: (await get('/api/resources.json')).text,
  });

  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org);
  });

  describe('text fields', () => {
    let before: Awaited<ReturnType<typeof listings>>;
    beforeEach(async () => {
      before = await listings();
    });
    afterEach(async () => {
      expect(await listings()).toEqual(before);
      await expectXmlParses(orgPath('/groups.xml'));
      await expectXmlParses(orgPath('/oneshots.xml'));
      await expectXmlParses(`/clients/${device.identifier}/oneshots.xml`);
    });

    it('refuses a group name with U+0007, naming it, in JSON and XML, create and update', async () => {
      const groups = (await get(orgPath('/groups.json'))).json().groups;
      expectRefusal(await sys.api.post(orgPath('/groups'), { token: sys.org.token, json: ['Field\u0007team'] }), 400, /\[0\]: contains a character XML cannot carry \(U\+0007\)/);
      const xml = '<groups><group><name>Field&#7;team</name></group></groups>';
      expectRefusal(await sys.api.post(orgPath('/groups'), { token: sys.org.token, xml }), 400, /groups\.group\.name: contains a character XML cannot carry \(U\+0007\)/);
      const raw = '<groups><group><name>Field\u0007team</name></group></groups>';
      expectRefusal(await sys.api.post(orgPath('/groups'), { token: sys.org.token, xml: raw }), 400, /groups\.group\.name: .*U\+0007/);
      const update = orgPath(`/groups/${groups[0].id}`);
      expectRefusal(await sys.api.put(update, { token: sys.org.token, json: { group: { name: 'x\u0007' } } }), 400, /group\.name: .*U\+0007/);
      expectRefusal(await sys.api.put(update, { token: sys.org.token, xml: '<group><name>x&#x7;</name></group>' }), 400, /group\.name: .*U\+0007/);
    });

    it('refuses a oneshot name, description or payload value with U+0000, U+FFFE or U+FFFF, in JSON and XML', async () => {
      const push = (body: object) => pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {}, ...body });
      expectRefusal(await push({ form_name: 'a\u0000' }), 400, /form_name: contains a character XML cannot carry \(U\+0000\)/);
      expectRefusal(await push({ form_description: '\u0000' }), 400, /form_description: .*U\+0000/);
      expectRefusal(await push({ payload: { customer_name: 'x\uFFFE' } }), 400, /payload\.customer_name: .*U\+FFFE/);
      expectRefusal(await push({ payload: { parts: [{ part_no: '\uFFFF' }] } }), 400, /payload\.parts\[0\]\.part_no: .*U\+FFFF/);
      expectRefusal(await push({ payload: { 'customer\u0001name': 'x' } }), 400, /payload: a name contains .*U\+0001/);
      const xml = `<oneshot><form_namespace>${sys.template.namespace}</form_namespace><form_name>x&#0;</form_name></oneshot>`;
      expectRefusal(await sys.api.post(`/clients/${device.identifier}/oneshots`, { token: sys.org.token, xml }), 400, /oneshot\.form_name: .*U\+0000/);
    });

    it('refuses a lone surrogate, anywhere, and stores nothing of it', async () => {
      const body = `{"form_namespace":"${sys.template.namespace}","form_name":"lone \\ud800","payload":{}}`;
      const res = await sys.api.post(`/clients/${device.identifier}/oneshots.json`, { token: sys.org.token, body, contentType: 'application/json' });
      expectRefusal(res, 400, /form_name: contains a character XML cannot carry \(U\+D800, a lone surrogate\)/);
      const group = await sys.api.post(orgPath('/groups'), { token: sys.org.token, body: '["\\udc00 low"]', contentType: 'application/json' });
      expectRefusal(group, 400, /\[0\]: .*U\+DC00/);
    });

    it('refuses such text in device updates, enrollment, form titles, resources and device submissions', async () => {
      expectRefusal(await sys.api.put(orgPath(`/devices/${device.id}`), { token: sys.org.token, json: { device: { owner: 'Tech\u0002' } } }), 400, /device\.owner: .*U\+0002/);
      const enroll = { enrollment_code: sys.org.enrollmentCode, identifier: 'Android_text', owner: 'x', description: 'bell\u0007', push_token: null };
      expectRefusal(await sys.api.post('/devices/enroll', { json: enroll }), 400, /description: .*U\+0007/);
      expectRefusal(await sys.api.post(orgPath('/forms'), { token: sys.org.token, json: { ...inspectionForm, title: 'T\u000b' } }), 400, /title: .*U\+000B/);
      const resource = { description: 'd\u001f', file: { file_name: 'a.txt', content_type: 'text/plain', file_data: Buffer.from('hello').toString('base64') } };
      expectRefusal(await sys.api.post('/api/resources.json', { token: sys.org.token, json: { resource } }), 400, /resource\.description: .*U\+001F/);
      const named = { ...resource, description: 'ok', file: { ...resource.file, file_name: 'a\u0000.txt' } };
      expectRefusal(await sys.api.post('/api/resources.json', { token: sys.org.token, json: { resource: named } }), 400, /resource\.file\.file_name: .*U\+0000/);
      const answers = { answers: { customer_name: { value: 'x\u0008' } } };
      expectRefusal(await sys.api.post(`/device/forms/${sys.template.id}/submissions`, { bearer: device.secret, json: answers }), 400, /answers\.customer_name\.value: .*U\+0008/);
    });

    it('refuses such text in a path or a query string, never a 500', async () => {
      expectRefusal(await get('/clients/Android%00x/oneshots.json'), 400, /path: contains a character XML cannot carry \(U\+0000\)/);
      expectRefusal(await get(orgPath('/devices/%07')), 400, /path: .*U\+0007/);
      expectRefusal(await get('/clients/%ED%A0%80/oneshots.json'), 400, /path: .* not valid percent-encoding/);
      expectRefusal(await get(`/api/forms/${sys.template.id}/device_magic_database.json?device_id=%00`), 400, /device_id: .*U\+0000/);
    });

    it('takes TAB, LF, CR and the rest of Unicode, and gives them back as sent', async () => {
      const name = `Tabs\tand\nlines\r, é 日本 😊 \uFFFD ${Date.now()}`;
      const created = await sys.api.post(orgPath('/groups'), { token: sys.org.token, json: [name] });
      expect(created.status).toBe(201);
      const [group] = created.json().groups;
      expect(group.name).toBe(name);
      const xml = await expectXmlParses(orgPath('/groups.xml'));
      expect(xml).toContain('Tabs\tand\nlines');
      expect((await sys.api.delete(orgPath(`/groups/${group.id}`), { token: sys.org.token })).status).toBe(200);
    });
  });

  describe('nesting', () => {
    const deep = arrays(10_000);

    it('refuses JSON 10,000 levels deep with 400 on every route that takes JSON, creating nothing', async () => {
      const before = await listings();
      const oneshot = (payload: string) => `{"form_namespace":"${sys.template.namespace}","payload":${payload}}`;
      const { id: oneshotId } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
      const afterPush = await listings();
      const attempts: Array<[string, string, string, { token?: string; bearer?: string }]> = [
        ['POST', orgPath('/forms'), `{"type":"root","title":"x","children":${deep}}`, { token: sys.org.token }],
        ['PUT', orgPath(`/forms/${sys.template.id}`), `{"type":"root","title":"x","children":${deep}}`, { token: sys.org.token }],
        ['POST', '/devices/enroll', `{"enrollment_code":"${sys.org.enrollmentCode}","identifier":"Android_deep","extra":${deep}}`, {}],
        ['POST', `/clients/${device.identifier}/oneshots.json`, oneshot(`{"customer_name":${deep}}`), { token: sys.org.token }],
        ['POST', `/device/forms/${sys.template.id}/submissions`, `{"answers":{"customer_name":${deep}}}`, { bearer: device.secret }],
        ['POST', `/device/oneshots/${oneshotId}/submission`, `{"answers":${deep}}`, { bearer: device.secret }],
        ['POST', orgPath('/groups'), deep, { token: sys.org.token }],
        ['POST', '/api/resources.json', `{"resource":{"description":"x","extra":${arrays(5_000)}}}`, { token: sys.org.token }],
      ];
      for (const [method, path, body, auth] of attempts) {
        const res = await sys.api.request(method, path, { ...auth, body, contentType: 'application/json' });
        expect({ path, status: res.status, text: res.text }).toEqual({ path, status: 400, text: expect.stringMatching(/nested deeper than 32 levels/) });
      }
      expect(await listings()).toEqual(afterPush);
      expect(afterPush.oneshots).not.toEqual(before.oneshots);
      const stillOutstanding = await sys.api.get(`/device/oneshots/${oneshotId}`, { bearer: device.secret });
      expect(stillOutstanding.status).toBe(200);
      expect((await sys.api.delete(`/clients/${device.identifier}/oneshots/${oneshotId}`, { token: sys.org.token })).status).toBe(200);
    });

    it('takes a valid body 31 or 32 levels deep and refuses one 33 deep, as XML', async () => {
      const create = (body: string) => sys.api.post(orgPath('/forms'), { token: sys.org.token, body, contentType: 'application/json' });
      expect((await create(formNestedTo(31, 'Deep 31'))).status).toBe(201);
      const created = await create(formNestedTo(32, 'Deep 32'));
      expect(created.status).toBe(201);
      const forms = (await get(orgPath('/forms.json'))).text;
      expectRefusal(await create(formNestedTo(33, 'Deep 33')), 400, /nested deeper than 32 levels/);
      expect((await get(orgPath('/forms.json'))).text).toBe(forms);
      const xml = (depth: number) => `<groups><group><name>n</name><x>${'<a>'.repeat(depth - 3)}${'</a>'.repeat(depth - 3)}</x></group></groups>`;
      const groups = orgPath('/groups');
      expect((await sys.api.post(groups, { token: sys.org.token, xml: xml(32) })).status).toBe(201);
      expectRefusal(await sys.api.post(groups, { token: sys.org.token, xml: xml(33) }), 400, /Maximum nested tags/);
    });
  });

  describe('compressed bodies', () => {
    const groupsPath = () => orgPath('/groups');
    const compressions: Array<[string, (data: Buffer) => Buffer]> = [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ];
    const resourceBody = (description: string) =>
      JSON.stringify({ resource: { description, file: { file_name: 'a.txt', content_type: 'text/plain', file_data: Buffer.from('hello').toString('base64') } } });

    it.each(['gzip', 'deflate', 'br'])('refuses a body that is not %s with 400 on groups, forms, enroll and resources, creating nothing', async (encoding) => {
      const before = await listings();
      const headers = { 'content-encoding': encoding };
      for (const [path, auth] of [
        [groupsPath(), { token: sys.org.token }],
        [orgPath('/forms'), { token: sys.org.token }],
        ['/devices/enroll', {}],
        ['/api/resources.json', { token: sys.org.token }],
      ] as const) {
        const res = await sys.api.post(path, { ...auth, body: notCompressed, contentType: 'application/json', headers });
        expect({ path, status: res.status, text: res.text }).toEqual({ path, status: 400, text: expect.stringContaining(`body: could not be decompressed (${encoding})`) });
      }
      expect(await listings()).toEqual(before);
    });

    it('refuses a compressed body cut short with 400', async () => {
      const cut = gzipSync(Buffer.from('["Cut short"]')).subarray(0, 12);
      expectRefusal(await sys.api.post(groupsPath(), { token: sys.org.token, body: cut, contentType: 'application/json', headers: { 'content-encoding': 'gzip' } }), 400, /could not be decompressed \(gzip\)/);
    });

    it.each(compressions)('takes a valid %s body, on groups and on resources', async (encoding, compress) => {
      const name = `Compressed ${encoding} ${Date.now()}`;
      const headers = { 'content-encoding': encoding };
      const group = await sys.api.post(groupsPath(), { token: sys.org.token, body: compress(Buffer.from(JSON.stringify([name]))), contentType: 'application/json', headers });
      expect(group.status).toBe(201);
      expect(group.json().groups[0].name).toBe(name);
      const resource = await sys.api.post('/api/resources.json', { token: sys.org.token, body: compress(Buffer.from(resourceBody(name))), contentType: 'application/json', headers });
      expect(resource.status).toBe(201);
      expect(resource.json().resource.description).toBe(name);
    });

    it('refuses a gzip bomb with 413, on groups and on resources', async () => {
      const before = await listings();
      const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, ' '));
      expect(bomb.length).toBeLessThan(100_000);
      for (const path of [groupsPath(), '/api/resources.json']) {
        const res = await sys.api.post(path, { token: sys.org.token, body: bomb, contentType: 'application/json', headers: { 'content-encoding': 'gzip' } });
        expect({ path, status: res.status }).toEqual({ path, status: 413 });
      }
      expect(await listings()).toEqual(before);
    });

    it('refuses an unknown Content-Encoding with 415', async () => {
      const res = await sys.api.post(groupsPath(), { token: sys.org.token, body: '["x"]', contentType: 'application/json', headers: { 'content-encoding': 'compress' } });
      expect(res.status).toBe(415);
    });
  });
});
