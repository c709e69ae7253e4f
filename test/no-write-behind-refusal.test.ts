import { createBatteryFixtures, authHeaders, ownPath, plainValues, routes, type BatteryFixtures, type RouteCase } from './support/hostile-inputs';
import { sendHostile } from './support/hostile-inputs';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/**
 * Issue 22: a refused request changes nothing, on every route. Every write route of the
 * hostile battery's table, on the suite's own records (a delete names the real record), is
 * sent with a format suffix it does not have and with a body it refuses; each must be a 4xx,
 * and everything the organization (and its device) can read of itself must be as it was. A
 * route added to the table is walked too.
 */

const writes = routes.filter((r) => r.method !== 'GET');
const takesBody = (r: RouteCase) => r.json !== undefined || r.xml !== undefined;
const badSuffixes = ['.foo', '.exe', '.XMLS', '.json5', '.%41'];

/** The route's path on the fixtures' own ids, with `suffix` in place of its own (or added). */
function withSuffix(r: RouteCase, f: BatteryFixtures, suffix: string): string {
  const [path, query] = ownPath(r.path, f).split('?');
  return `${path!.replace(/\.(json|xml)$/, '')}${suffix}${query === undefined ? '' : `?${query}`}`;
}

/** A plausible body for `r`: one that would be taken on the right path. */
function plausibleBody(r: RouteCase, f: BatteryFixtures): { body?: string; headers: Record<string, string> } {
  if (r.json) return { body: JSON.stringify(r.json(f, plainValues)), headers: { 'content-type': 'application/json' } };
  if (r.xml) return { body: r.xml(f, plainValues), headers: { 'content-type': 'application/xml' } };
  return { headers: {} };
}

/** Bodies every body route refuses: malformed, and of the wrong type, each as JSON and as XML. */
const refusedBodies = [
  { body: '{"unclosed": ', headers: { 'content-type': 'application/json' } },
  { body: '42', headers: { 'content-type': 'application/json' } },
  { body: '<unclosed><a></unclosed>', headers: { 'content-type': 'application/xml' } },
];

describe.each(systemModes)('No write behind a refused request (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1, hookTimeoutMs: 120_000 });
  let f: BatteryFixtures;

  /** Everything the organization, its form and its device can read of themselves. */
  const readable = async (): Promise<string[]> => {
    const asOrg = { token: f.org.token };
    const paths = [
      '/organizations/:org/groups.json',
      '/api/v2/organizations/:org/groups.json',
      '/organizations/:org/devices.json',
      '/api/v2/organizations/:org/devices.json',
      '/organizations/:org/forms.json',
      '/organizations/:org/oneshots.json',
      '/clients/:deviceRef/oneshots.json',
      '/clients/:deviceRef/badge.json',
      '/api/v3/organization_dispatches.json',
      '/api/forms/:form/destinations.json',
      '/organizations/:org/forms/:form/remote_connections.xml',
      '/api/forms/:template/device_magic_database.json',
      '/api/resources.json',
      // The image the battery's submission image routes name (404 while none is saved).
      '/api/v3/devices/:deviceRef/submission_images/battery/get_md5',
    ].map((path) => ownPath(path, f));
    const answers = await Promise.all(paths.map(async (path) => `${path} ${(await sys.api.get(path, asOrg)).text}`));
    const device = await sys.api.get('/device/oneshots', { bearer: f.device.secret });
    const tokens = await sys.api.get(ownPath('/admin/organizations/:org/tokens', f), { bearer: sys.adminToken });
    const organizations = await sys.api.get('/admin/organizations', { bearer: sys.adminToken });
    return [...answers, `device ${device.text}`, `tokens ${tokens.text}`, `organizations ${organizations.text}`];
  };

  beforeAll(async () => {
    f = await createBatteryFixtures(sys.api, sys.org, sys.adminToken);
  }, 120_000);

  it('walks at least every write route of the table', () => {
    expect(writes.length).toBeGreaterThan(40);
  });

  it.each(writes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: a bad suffix is 404 and a refused body a 4xx, and nothing changes', async (_name, r) => {
    const before = await readable();
    const answers: string[] = [];
    const send = async (how: string, path: string, body: { body?: string; headers: Record<string, string> }, expected: (status: number) => boolean) => {
      const answer = await sendHostile(sys.running.api.baseUrl, { label: how, method: r.method, path, headers: { ...authHeaders(r, f, sys.adminToken), ...body.headers }, body: body.body });
      if (typeof answer.status !== 'number' || !expected(answer.status)) answers.push(`${how}: ${r.method} ${path} → ${answer.status} ${answer.excerpt.slice(0, 160)}`);
    };
    for (const suffix of badSuffixes) {
      await send(`suffix ${suffix}`, withSuffix(r, f, suffix), plausibleBody(r, f), (status) => status === 404);
    }
    if (takesBody(r)) {
      // On the route's own suffix, and on the documented ones in upper case.
      for (const path of [ownPath(r.path, f), withSuffix(r, f, '.JSON'), withSuffix(r, f, '.XML')]) {
        for (const refused of refusedBodies) await send(`refused body ${refused.body}`, path, refused, (status) => status >= 400 && status < 500);
      }
    }
    const changed = (await readable()).filter((listing, i) => listing !== before[i]);
    expect({ answers, changed }).toEqual({ answers: [], changed: [] });
  });

  it('takes the documented suffixes in any case: .XML and .JSON are .xml and .json', async () => {
    const path = (suffix: string) => `/api/v3/devices/${f.device.identifier}/dispatches${suffix}`;
    const body = { form_namespace: f.template.namespace, payload: { customer_name: 'Upper case' } };
    const asXml = await sys.api.post(path('.XML'), { token: f.org.token, json: body });
    expect(asXml.status).toBe(202);
    expect(asXml.headers.get('content-type')).toMatch(/xml/);
    const asJson = await sys.api.post(path('.JSON'), { token: f.org.token, json: body });
    expect(asJson.status).toBe(202);
    expect(asJson.headers.get('content-type')).toMatch(/json/);
    const listed = await sys.api.get(path('.Json'), { token: f.org.token });
    expect(listed.status).toBe(200);
    expect(listed.json()).toEqual(expect.anything());
  });
});
