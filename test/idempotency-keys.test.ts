import { randomUUID } from 'node:crypto';
import { waitFor } from '@formcast/testing';
import type { ApiResponse, RequestOptions } from './support/api-client';
import { enrollDevice, simpleFormDefinition, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, inspectionForm } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const publicUri = 'https://93.184.215.14/hooks/formcast';

/** What a client compares between two answers: status, type and body. */
const answerOf = (res: ApiResponse) => ({ status: res.status, contentType: res.headers.get('content-type'), body: res.text });

describe.each(systemModes)('Idempotency-Key on creates (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });
  let device: TestDevice;

  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org);
  });

  const newKey = () => `key-${randomUUID()}`;
  const withKey = (key: string, options: RequestOptions, org: TestOrganization = sys.org): RequestOptions => ({
    token: org.token,
    ...options,
    headers: { ...options.headers, 'idempotency-key': key },
  });
  const outstandingOn = async (d: TestDevice, org: TestOrganization = sys.org) =>
    (await sys.api.get(`/clients/${d.identifier}/oneshots.json`, { token: org.token })).json() as Array<{ id: number; description: string }>;
  const badgeOf = async (d: TestDevice) => (await sys.api.get(`/clients/${d.identifier}/badge.json`, { token: sys.org.token })).json().badge as number;
  const pushBody = (description: string) => ({ form_namespace: sys.template.namespace, form_description: description, payload: { customer_name: 'Acme' } });

  describe('pushes', () => {
    it('answers a repeated push with the first answer, creating one oneshot: the badge stays 1', async () => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = newKey();
      const push = () => sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Once') }));

      const first = await push();
      const repeat = await push();

      expect(first.status).toBe(202);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect((await outstandingOn(fresh)).map((o) => o.id)).toEqual([first.json().oneshot_list[0].id]);
      await waitFor(async () => (await badgeOf(fresh)) === 1);
      // A push without a key after them counts: the badge reads 2, never 3.
      await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, { token: sys.org.token, json: pushBody('Another') });
      await waitFor(async () => (await badgeOf(fresh)) === 2);
      expect(await outstandingOn(fresh)).toHaveLength(2);
    });

    it('answers XML pushes the same way, byte for byte', async () => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = newKey();
      const xml = `<oneshot><form_namespace>${sys.template.namespace}</form_namespace><customer_name>X</customer_name></oneshot>`;
      const first = await sys.api.post(`/clients/${fresh.identifier}/oneshots`, withKey(key, { xml }));
      const repeat = await sys.api.post(`/clients/${fresh.identifier}/oneshots`, withKey(key, { xml }));
      expect(first.status).toBe(202);
      expect(first.text).toContain('<oneshot_list>');
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect(await outstandingOn(fresh)).toHaveLength(1);
    });

    it('refuses the key with another body, or on another path, with 422 saying so, creating nothing', async () => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = newKey();
      const first = await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('First') }));
      expect(first.status).toBe(202);

      const otherBody = await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Second') }));
      expect(otherBody.status).toBe(422);
      expect(otherBody.json().message).toMatch(/Idempotency-Key.*different request/);
      const otherFormat = await sys.api.post(`/clients/${fresh.identifier}/oneshots.xml`, withKey(key, { json: pushBody('First') }));
      expect(otherFormat.status).toBe(422);
      const otherDevice = await sys.api.post(`/clients/${device.identifier}/oneshots.json`, withKey(key, { json: pushBody('First') }));
      expect(otherDevice.status).toBe(422);

      expect((await outstandingOn(fresh)).map((o) => o.description)).toEqual(['First']);
      expect((await outstandingOn(device)).filter((o) => o.description === 'First')).toEqual([]);
    });

    it('keeps keys apart per organization', async () => {
      const key = newKey();
      const theirs = await enrollDevice(sys.api, sys.orgs[1]);
      const theirTemplate = await createTemplate(sys.api, sys.orgs[1], inspectionForm);
      const fresh = await enrollDevice(sys.api, sys.org);

      const ours = await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Ours') }));
      const their = await sys.api.post(
        `/clients/${theirs.identifier}/oneshots.json`,
        withKey(key, { json: { form_namespace: theirTemplate.namespace, form_description: 'Theirs', payload: {} } }, sys.orgs[1]),
      );

      expect(ours.status).toBe(202);
      expect(their.status).toBe(202);
      expect(await outstandingOn(fresh)).toHaveLength(1);
      expect((await outstandingOn(theirs, sys.orgs[1])).map((o) => o.description)).toEqual(['Theirs']);
    });

    it('of two pushes with one key at once, creates one; the other gets its answer or 409', async () => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = newKey();
      const push = () => sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Raced') }));

      const answers = await Promise.all([push(), push()]);

      const created = answers.filter((res) => res.status === 202);
      const refused = answers.filter((res) => res.status !== 202);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const res of created) expect(res.text).toBe(created[0]!.text);
      for (const res of refused) {
        expect(res.status).toBe(409);
        expect(res.json().message).toMatch(/Idempotency-Key is still being processed/);
      }
      expect(await outstandingOn(fresh)).toHaveLength(1);
      // Once the first has finished, the key answers what it answered.
      const later = await push();
      expect(answerOf(later)).toEqual(answerOf(created[0]!));
    });

    it('answers a refused push (4xx) again with the same refusal, even once it would pass', async () => {
      const key = newKey();
      const form = await createTemplate(sys.api, sys.org, simpleFormDefinition('Late'));
      const body = { form_namespace: `${form.namespace}-not-yet`, payload: {} };
      const first = await sys.api.post(`/clients/${device.identifier}/oneshots.json`, withKey(key, { json: body }));
      const repeat = await sys.api.post(`/clients/${device.identifier}/oneshots.json`, withKey(key, { json: body }));
      expect(first.status).toBe(400);
      expect(answerOf(repeat)).toEqual(answerOf(first));
    });

    it('keeps a refusal made before anything was written: once the template exists, the key still answers 400, a new key 202', async () => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = newKey();
      const namespace = `https://forms.example.com/late-${randomUUID()}`;
      const body = { form_namespace: namespace, payload: { customer_name: 'Acme' } };
      const push = (withThisKey: string) => sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(withThisKey, { json: body }));

      const first = await push(key);
      expect(first.status).toBe(400);
      await createTemplate(sys.api, sys.org, { ...simpleFormDefinition(`Late ${randomUUID()}`), namespace });
      // The directory announces the new form; a push with a new key passes once push has heard it.
      await waitFor(async () => (await push(newKey())).status === 202, { timeoutMs: 15_000, description: 'a push to the new template' });

      expect(answerOf(await push(key))).toEqual(answerOf(first));
      expect(await outstandingOn(fresh)).toHaveLength(1);
    });

    it.each([
      ['empty', ''],
      ['longer than 255 characters', 'k'.repeat(256)],
    ])('refuses a key that is %s with 400 naming Idempotency-Key, creating nothing', async (_what, key) => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const res = await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Bad key') }));
      expect(res.status).toBe(400);
      expect(res.text).toContain('Idempotency-Key');
      expect(await outstandingOn(fresh)).toEqual([]);
    });

    it('takes a key of 255 characters', async () => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = 'k'.repeat(255);
      const first = await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Long key') }));
      const repeat = await sys.api.post(`/clients/${fresh.identifier}/oneshots.json`, withKey(key, { json: pushBody('Long key') }));
      expect(first.status).toBe(202);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect(await outstandingOn(fresh)).toHaveLength(1);
    });
  });

  describe('later generations of the push API', () => {
    it.each(['v3', 'v2'])('%s create: the repeat answers the same dispatch, one created', async (version) => {
      const fresh = await enrollDevice(sys.api, sys.org);
      const key = newKey();
      const path = `/api/${version}/devices/${fresh.identifier}/dispatches.json`;
      const first = await sys.api.post(path, withKey(key, { json: pushBody('Dispatched') }));
      const repeat = await sys.api.post(path, withKey(key, { json: pushBody('Dispatched') }));
      expect(first.status).toBe(202);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect(await outstandingOn(fresh)).toHaveLength(1);
      expect((await sys.api.post(path, withKey(key, { json: pushBody('Changed') }))).status).toBe(422);
    });

    it('bulk: the key covers the whole request, good and bad items alike', async () => {
      const [one, two] = [await enrollDevice(sys.api, sys.org), await enrollDevice(sys.api, sys.org)];
      const key = newKey();
      const item = (d: TestDevice) => ({ device: d.identifier, form_namespace: sys.template.namespace, form_description: 'Bulk', payload: {} });
      const body = { dispatches: [item(one), { ...item(two), form_namespace: 'http://nowhere.example/unknown' }, item(two)] };
      const first = await sys.api.post('/api/v3/dispatches/bulk.json', withKey(key, { json: body }));
      const repeat = await sys.api.post('/api/v3/dispatches/bulk.json', withKey(key, { json: body }));
      expect(first.status).toBe(200);
      expect(first.json().results.map((r: { status: number }) => r.status)).toEqual([202, 400, 202]);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect(await outstandingOn(one)).toHaveLength(1);
      expect(await outstandingOn(two)).toHaveLength(1);
      await waitFor(async () => (await badgeOf(two)) === 1);
    });
  });

  describe('the other creates', () => {
    it('groups: the repeat answers 201 with the groups, not 304, and creates nothing', async () => {
      const key = newKey();
      const path = `/organizations/${sys.org.orgId}/groups.json`;
      const names = [`Team ${randomUUID()}`];
      const first = await sys.api.post(path, withKey(key, { json: names }));
      const repeat = await sys.api.post(path, withKey(key, { json: names }));
      expect(first.status).toBe(201);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      const groups = (await sys.api.get(path, { token: sys.org.token })).json().groups as Array<{ name: string }>;
      expect(groups.filter((g) => g.name === names[0])).toHaveLength(1);
      expect((await sys.api.post(path, withKey(key, { json: [`Other ${randomUUID()}`] }))).status).toBe(422);
    });

    it('forms: the repeat answers the same form, one form created', async () => {
      const key = newKey();
      const path = `/organizations/${sys.org.orgId}/forms`;
      const definition = simpleFormDefinition(`Once ${randomUUID()}`);
      const first = await sys.api.post(path, withKey(key, { json: definition }));
      const repeat = await sys.api.post(path, withKey(key, { json: definition }));
      expect(first.status).toBe(201);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      const forms = (await sys.api.get(`${path}.json`, { token: sys.org.token })).json() as unknown;
      expect(JSON.stringify(forms).split(definition.title).length - 1).toBe(1);
    });

    it('resources: the repeat answers the same resource, one stored; another file is 422', async () => {
      const key = newKey();
      const file = Buffer.from('Gate code 4711\n').toString('base64');
      const body = (name: string) => ({ resource: { description: 'Notes', file: { file_name: name, file_data: file, content_type: 'text/plain' } } });
      const before = (await sys.api.get('/api/resources.json', { token: sys.org.token })).json().resources.length as number;
      const first = await sys.api.post('/api/resources.json', withKey(key, { json: body('notes.txt') }));
      const repeat = await sys.api.post('/api/resources.json', withKey(key, { json: body('notes.txt') }));
      expect(first.status).toBe(201);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect((await sys.api.post('/api/resources.json', withKey(key, { json: body('other.txt') }))).status).toBe(422);
      expect((await sys.api.get('/api/resources.json', { token: sys.org.token })).json().resources).toHaveLength(before + 1);
    });

    it('destinations: the repeat answers the same destination and secret, one created', async () => {
      const key = newKey();
      const form = await createTemplate(sys.api, sys.org, simpleFormDefinition(`Hooked ${randomUUID()}`));
      const path = `/api/forms/${form.id}/destinations.json`;
      const body = {
        destination: { description: 'Our CRM', format_selection: 'json_format', transport_selection: 'http_transport' },
        json_format: {},
        http_transport: { uri: publicUri },
      };
      const first = await sys.api.post(path, withKey(key, { json: body }));
      const repeat = await sys.api.post(path, withKey(key, { json: body }));
      expect(first.status).toBe(201);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      expect((await sys.api.get(path, { token: sys.org.token })).json().destinations).toHaveLength(1);
    });

    it('remote connections: a request making two answers the same two, each made once', async () => {
      const key = newKey();
      const form = await createTemplate(sys.api, sys.org, simpleFormDefinition(`Connected ${randomUUID()}`));
      const path = `/organizations/${sys.org.orgId}/forms/${form.id}/remote_connections`;
      const connection = (name: string) => `<http_connection><name>${name}</name><remote_url>${publicUri}</remote_url></http_connection>`;
      const xml = `<remote_connections>${connection('One')}${connection('Two')}</remote_connections>`;
      const first = await sys.api.post(path, withKey(key, { xml }));
      const repeat = await sys.api.post(path, withKey(key, { xml }));
      expect(first.status).toBe(201);
      expect(first.text.match(/<http_connection>/g)).toHaveLength(2);
      expect(answerOf(repeat)).toEqual(answerOf(first));
      const listed = await sys.api.get(`${path}.xml`, { token: sys.org.token });
      expect(listed.text.match(/<http_connection>/g)).toHaveLength(2);
    });
  });
});
