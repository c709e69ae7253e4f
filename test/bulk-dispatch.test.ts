import { XMLParser } from 'fast-xml-parser';
import type { Bus } from '@formcast/bus';
import { pushCommands } from '@formcast/contracts';
import { startDirectoryService } from '@formcast/directory';
import type { ServiceStarter } from '@formcast/platform';
import { startPushService } from '@formcast/push';
import { uniqueName, waitFor } from '@formcast/testing';
import type { ApiResponse } from './support/api-client';
import { notifierWithStandIn, testRedisUrl } from './support/notifier-with-stand-in';
import { enrollDevice } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';


/** Commands a service served, by type, seen through the bus it was started with. */
function countingCommands(bus: Bus, served: Map<string, number>): Bus {
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'handleCommand') {
        return (service: string, type: string, handler: Parameters<Bus['handleCommand']>[2]) =>
          target.handleCommand(service, type, (command) => {
            served.set(type, (served.get(type) ?? 0) + 1);
            return handler(command);
          });
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

interface ItemResult {
  status: number;
  id?: number;
  namespace?: string;
  name?: string;
  error?: { code: string; message: string };
}

/** The message of an error answer, whichever body it came in (400 is plain text, others JSON). */
function errorMessage(res: ApiResponse): string {
  if (res.status === 400) return /^message: (.*)$/m.exec(res.text)![1]!;
  return res.json<{ message: string }>().message;
}

describe.each(systemModes)('Bulk dispatch: POST /api/v3/dispatches/bulk (%s)', (mode) => {
  const notifier = notifierWithStandIn('e2e_bulk');
  // Push's commands are counted where push runs in this process (embedded, rabbitmq); the
  // distributed mode runs the push process itself.
  const countsCommands = mode !== 'distributed';
  const served = new Map<string, number>();
  const push: ServiceStarter<Bus> = countsCommands ? (context) => startPushService({ ...context, bus: countingCommands(context.bus, served) }) : startPushService;

  const sys = useSystem(mode, {
    env: mode === 'rabbitmq' ? { REDIS_URL: testRedisUrl } : {},
    starters: [startDirectoryService, push, notifier.starter],
    organizations: 2,
    template: {
      type: 'root',
      title: 'Inspection',
      children: [
        { identifier: 'site', type: 'text' },
        { identifier: 'visits', type: 'integer' },
        { identifier: 'parts', type: 'group', children: [{ identifier: 'part_no', type: 'text' }] },
      ],
    },
  });
  afterAll(() => notifier.cleanUp());

  const bulk = (body: unknown, path = '/api/v3/dispatches/bulk.json', headers: Record<string, string> = {}) =>
    sys.api.post(path, { token: sys.org.token, json: body, headers });
  const resultsOf = (res: ApiResponse) => res.json<{ results: ItemResult[] }>().results;
  const enroll = async (pushToken: string | null) => {
    const identifier = uniqueName('Android_bulk').replace(/[^A-Za-z0-9_.:-]/g, '');
    const res = await sys.api.post('/devices/enroll', { json: { enrollment_code: sys.org.enrollmentCode, identifier, push_token: pushToken } });
    const { device } = res.json();
    await sys.api.post(`/organizations/${sys.org.orgId}/devices/${device.id}/approve`, { token: sys.org.token });
    return { id: device.id as number, identifier };
  };
  const outstanding = async (identifier: string) =>
    (await sys.api.get(`/clients/${identifier}/oneshots.json`, { token: sys.org.token })).json<Array<{ id: number; name: string }>>();
  const badge = async (identifier: string) => (await sys.api.get(`/clients/${identifier}/badge.json`, { token: sys.org.token })).json<{ badge: number }>().badge;

  it('mixed good and bad items: results in order; the good ones created, listed, badged and notified; each bad one answered as it would be alone', async () => {
    const tokenA = `fcm-${uniqueName('bulkA')}`;
    const tokenC = `fcm-${uniqueName('bulkC')}`;
    const a = await enroll(tokenA);
    const c = await enroll(tokenC);
    const b = await enroll(null);
    const foreign = await enrollDevice(sys.api, sys.orgs[1]);
    const ns = sys.template.namespace;
    const items = [
      { device: a.identifier, form_namespace: ns, form_name: 'Visit Acme', form_description: 'Gate 4', payload: { site: 'North' } },
      { device: 'Android_nobody_has_this', form_namespace: ns, payload: {} },
      { device: foreign.identifier, form_namespace: ns, payload: {} },
      { device: b.identifier, form_namespace: 'http://forms.example.com/unknown', payload: {} },
      { device: b.identifier, form_namespace: ns, payload: { visits: 'many' } },
      { device: b.identifier, form_namespace: ns, payload: {}, scheduled_at: 'next tuesday' },
      { device: b.identifier, form_namespace: ns, form_name: 'Second', payload: { parts: [{ part_no: 'A-1' }] } },
      { device: a.identifier, form_namespace: ns, form_name: 'Third', payload: {} },
      { device: c.identifier, form_namespace: ns, form_name: 'Visit Acme', form_description: 'Gate 4', payload: {} },
    ];
    const res = await bulk({ dispatches: items });
    expect(res.status).toBe(200);
    const results = resultsOf(res);
    expect(results.map((r) => r.status)).toEqual([202, 404, 404, 400, 400, 400, 202, 202, 202]);
    expect(results[0]).toEqual({ status: 202, id: expect.any(Number), namespace: expect.stringContaining(`${ns}?`), name: 'Visit Acme' });
    expect(results[1]!.error!.code).toBe('not_found');
    expect(results[3]!.error!.message).toMatch(/^form_namespace: /);
    expect(results[4]!.error!.message).toMatch(/^payload\.visits: /);
    expect(results[5]!.error!.message).toMatch(/^scheduled_at: /);

    // Each bad item's status and message are those of the same create sent alone on the v3 path.
    for (const index of [1, 2, 3, 4, 5]) {
      const { device, ...fields } = items[index]!;
      const alone = await sys.api.post(`/api/v3/devices/${device}/dispatches.json`, { token: sys.org.token, json: fields });
      expect({ index, status: results[index]!.status, message: results[index]!.error!.message }).toEqual({ index, status: alone.status, message: errorMessage(alone) });
    }

    // The good ones are on the listings, under their names; the bad ones nowhere.
    expect((await outstanding(a.identifier)).map((o) => [o.id, o.name])).toEqual([
      [results[0]!.id, 'Visit Acme'],
      [results[7]!.id, 'Third'],
    ]);
    expect((await outstanding(b.identifier)).map((o) => [o.id, o.name])).toEqual([[results[6]!.id, 'Second']]);
    const foreignListing = await sys.api.get(`/clients/${foreign.identifier}/oneshots.json`, { token: sys.orgs[1].token });
    expect(foreignListing.json()).toEqual([]);
    const organizationListing = (await sys.api.get(`/organizations/${sys.org.orgId}/oneshots.json`, { token: sys.org.token })).json<Array<{ id: number }>>();
    expect(organizationListing.map((o) => o.id)).toEqual(expect.arrayContaining([results[0]!.id, results[6]!.id, results[7]!.id]));

    // Badged and notified as any push. Two alerts to one device in one turn merge into one
    // carrying the newer badge (the notifier's rule), so the alert's own text is checked on C.
    await waitFor(async () => (await badge(a.identifier)) === 2, { timeoutMs: 10_000, description: "device A's badge to reach 2" });
    await waitFor(async () => (await badge(b.identifier)) === 1, { timeoutMs: 10_000, description: "device B's badge to reach 1" });
    await waitFor(async () => (await badge(c.identifier)) === 1, { timeoutMs: 10_000, description: "device C's badge to reach 1" });
    await waitFor(() => Number(notifier.standIn().messagesTo(tokenA).at(-1)?.apns.payload.aps.badge) === 2, { timeoutMs: 10_000, description: 'the last message to A to carry badge 2' });
    expect(notifier.standIn().messagesTo(tokenA).at(-1)!.notification).toEqual({ title: expect.stringMatching(/^(Visit Acme|Third)$/) });
    await waitFor(() => notifier.standIn().messagesTo(tokenC).length > 0, { timeoutMs: 10_000, description: 'the alert to C' });
    expect(notifier.standIn().messagesTo(tokenC)).toEqual([
      expect.objectContaining({ notification: { title: 'Visit Acme', body: 'Gate 4' }, apns: expect.objectContaining({ payload: expect.objectContaining({ aps: expect.objectContaining({ badge: 1 }) }) }) }),
    ]);
  });

  it('takes and answers XML: <dispatches type="array"> in, <results type="array"> out, read back with an XML parser', async () => {
    const device = await enroll(null);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<dispatches type="array">
  <dispatch>
    <device>${device.identifier}</device>
    <form_namespace>${sys.template.namespace}</form_namespace>
    <form_name>From XML &amp; more</form_name>
    <payload>
      <site>South</site>
      <visits>3</visits>
      <parts><part_no>P-1</part_no></parts>
    </payload>
  </dispatch>
  <dispatch>
    <device>${device.identifier}</device>
    <form-namespace>${sys.template.namespace}</form-namespace>
    <payload><site>x</site><unknown_question>y</unknown_question></payload>
  </dispatch>
  <dispatch>
    <device>${device.identifier}</device>
    <form_namespace>${sys.template.namespace}</form_namespace>
    <payload/>
  </dispatch>
</dispatches>`;
    const res = await sys.api.post('/api/v3/dispatches/bulk.xml', { token: sys.org.token, xml });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (name) => name === 'result' }).parse(res.text);
    expect(parsed.results['@_type']).toBe('array');
    const [first, second, third] = parsed.results.result as Array<Record<string, any>>;
    expect(first).toEqual({
      status: { '#text': '202', '@_type': 'integer' },
      id: { '#text': expect.stringMatching(/^\d+$/), '@_type': 'integer' },
      namespace: expect.stringContaining(`${sys.template.namespace}?`),
      name: 'From XML & more',
    });
    expect(second).toEqual({ status: { '#text': '400', '@_type': 'integer' }, error: { code: 'invalid', message: expect.stringContaining('unknown_question') } });
    expect(third!.status['#text']).toBe('202');

    const listed = await outstanding(device.identifier);
    expect(listed.map((o) => o.id)).toEqual([Number(first!.id['#text']), Number(third!.id['#text'])]);
  });

  it('answers as the path suffix says, else as the body was sent (JSON by default)', async () => {
    const device = await enroll(null);
    const body = { dispatches: [{ device: device.identifier, form_namespace: sys.template.namespace, payload: {} }] };
    const asXml = await bulk(body, '/api/v3/dispatches/bulk.xml');
    expect(asXml.status).toBe(200);
    expect(asXml.text).toMatch(/<results type="array">\s*<result>\s*<status type="integer">202<\/status>/);
    const byDefault = await bulk(body, '/api/v3/dispatches/bulk');
    expect(resultsOf(byDefault)[0]!.status).toBe(202);
  });

  it('refuses a request as a whole: no items, more than 1,000, not a list, an item that is no object, a body over the limit; nothing is created', async () => {
    const device = await enroll(null);
    const item = { device: device.identifier, form_namespace: sys.template.namespace, payload: {} };
    const refusals = [
      await bulk({ dispatches: [] }),
      await bulk({ dispatches: Array.from({ length: 1001 }, () => item) }),
      await bulk({ dispatches: item }),
      await bulk([item]),
      await bulk({ dispatches: [item, 'not a dispatch'] }),
      await bulk({ dispatches: [item], send_at: 'later' }),
      await sys.api.post('/api/v3/dispatches/bulk.xml', { token: sys.org.token, xml: '<oneshots><dispatch/></oneshots>' }),
      await sys.api.post('/api/v3/dispatches/bulk.xml', { token: sys.org.token, xml: '<!DOCTYPE x [<!ENTITY a "b">]><dispatches/>' }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400, 400]);
    expect(errorMessage(refusals[0]!)).toBe('dispatches: give at least one');
    expect(errorMessage(refusals[1]!)).toBe('dispatches: at most 1000 in one request, not 1001');

    const oversized = await bulk({ dispatches: [{ ...item, payload: { site: 'x'.repeat(1024 * 1024 + 10) } }] });
    expect(oversized.status).toBe(413);
    expect(await outstanding(device.identifier)).toEqual([]);
  });

  it('refuses an item with an unknown field (a misspelt scheduled_at) alone, naming it', async () => {
    const device = await enroll(null);
    const res = await bulk({
      dispatches: [
        { device: device.identifier, form_namespace: sys.template.namespace, payload: {}, send_at: '2030-01-01T00:00:00Z' },
        { device: device.identifier, form_namespace: sys.template.namespace, payload: {} },
      ],
    });
    const [misspelt, fine] = resultsOf(res);
    expect(misspelt).toEqual({ status: 400, error: { code: 'invalid', message: expect.stringMatching(/^send_at: unknown field/) } });
    expect(fine!.status).toBe(202);
    expect((await outstanding(device.identifier)).map((o) => o.id)).toEqual([fine!.id]);
  });

  it("another organization's token sees none of it: its device is 404 from this organization, and this one's from it", async () => {
    const mine = await enroll(null);
    const theirs = await enrollDevice(sys.api, sys.orgs[1]);
    const res = await sys.api.post('/api/v3/dispatches/bulk.json', {
      token: sys.orgs[1].token,
      json: { dispatches: [{ device: mine.identifier, form_namespace: sys.template.namespace, payload: {} }, { device: String(mine.id), form_namespace: sys.template.namespace, payload: {} }] },
    });
    expect(resultsOf(res).map((r) => r.status)).toEqual([404, 404]);
    expect(await outstanding(mine.identifier)).toEqual([]);
    expect((await bulk({ dispatches: [{ device: theirs.identifier, form_namespace: sys.template.namespace, payload: {} }] })).json().results[0].status).toBe(404);
    expect((await sys.api.post('/api/v3/dispatches/bulk.json', { json: { dispatches: [] } })).status).toBe(401);
  });

  (countsCommands ? it : it.skip)('is one bus command to push however many items it carries', async () => {
    const devices = [await enroll(null), await enroll(null)];
    const before = { bulk: served.get(pushCommands.createDispatches) ?? 0, single: served.get(pushCommands.createOneshot) ?? 0 };
    const items = Array.from({ length: 200 }, (_, i) => ({ device: devices[i % 2]!.identifier, form_namespace: sys.template.namespace, form_name: `Item ${i}`, payload: {} }));
    const res = await bulk({ dispatches: items });
    expect(resultsOf(res).filter((r) => r.status === 202)).toHaveLength(200);
    expect({ bulk: served.get(pushCommands.createDispatches) ?? 0, single: served.get(pushCommands.createOneshot) ?? 0 }).toEqual({ bulk: before.bulk + 1, single: before.single });
    expect((await outstanding(devices[0]!.identifier)).map((o) => o.name)).toEqual(items.filter((_, i) => i % 2 === 0).map((item) => item.form_name));
  });

  it('1,000 items in one request are all created, in order', async () => {
    const devices = await Promise.all(Array.from({ length: 10 }, () => enroll(null)));
    const items = Array.from({ length: 1000 }, (_, i) => ({ device: devices[i % 10]!.identifier, form_namespace: sys.template.namespace, form_name: `N${i}`, payload: { site: `S${i}` } }));
    const res = await bulk({ dispatches: items });
    expect(res.status).toBe(200);
    const results = resultsOf(res);
    expect(results.map((r) => r.name)).toEqual(items.map((item) => item.form_name));
    expect(new Set(results.map((r) => r.id)).size).toBe(1000);
    const listed = await outstanding(devices[3]!.identifier);
    expect(listed.map((o) => o.name)).toEqual(items.filter((_, i) => i % 10 === 3).map((item) => item.form_name));
  });
});
