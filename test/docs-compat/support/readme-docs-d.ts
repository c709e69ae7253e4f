import { randomUUID } from 'node:crypto';
import { enrollDevice } from '../../support/fixtures';
import { createBatteryFixtures, type BatteryFixtures } from '../../support/hostile-inputs';
import { systemModes } from '../../support/start-system';
import { useSystem, type SystemUnderTest } from '../../support/use-system';

/**
 * The docs repository's index files (README.md, doc/api_v2_readme.md; the stored versions
 * read): what their preamble says of every request (UTF-8, JSON or XML, HTTP Basic, the
 * response codes), and each endpoint they list, sent. An index names an endpoint and links
 * the doc file that documents it; where its label differs from that file's path (README's
 * `/api/v3/dispatchs/…`, `POST /api/organizations/[org_id]/devices` for the approve), the
 * linked file's path is sent, and its examples are that file's suite's.
 */

export interface Context {
  sys: SystemUnderTest;
  f: BatteryFixtures;
  /** A device enrolled and not yet approved. */
  pendingId: number;
  /** A submission of the battery's template, by its device. */
  submissionId: string;
}

export interface IndexedEndpoint {
  /** As the index writes it. */
  label: string;
  /** The request sent for it (the linked doc file's path where the label differs). */
  method: string;
  path: (c: Context) => string;
  body?: (c: Context) => unknown;
  /** What Formcast answers (README's table, "Every path, by generation"). */
  status: number | number[];
}

/** Requests that change what others read run last, in order. */
export interface IndexedEndpoints {
  reads: IndexedEndpoint[];
  writes: IndexedEndpoint[];
}

const codes = [200, 201, 202, 204, 304, 400, 401, 403, 404, 422, 500];

async function submitOne(sys: SystemUnderTest, f: BatteryFixtures): Promise<string> {
  const identifier = randomUUID();
  const payload = `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${f.template.namespace}' submissionIdentifier='${identifier}'><customer_name>Ann</customer_name></instance>`;
  const sent = await sys.api.post(`/api/v3/devices/${f.device.identifier}/submissions.json`, { token: sys.org.token, json: { payload } });
  if (sent.status !== 202) throw new Error(`submitting answered ${sent.status}: ${sent.text}`);
  const listed = (await sys.api.get(`/api/forms/${f.template.id}/device_magic_database.json`, { token: sys.org.token })).json();
  const mine = listed.submissions.find((s: { metadata: { device_submission_identifier: { value: string } } }) => s.metadata.device_submission_identifier.value === identifier);
  return String(mine.metadata.submission_id.value);
}

/** The suite of one index file, in every mode. */
export function describeIndexDoc(docFile: string, endpoints: IndexedEndpoints): void {
  describe.each(systemModes)(`${docFile}: what it says of every request, and every endpoint it lists (%s)`, (mode) => {
    const sys = useSystem(mode, { organizations: 2 });
    let c: Context;

    beforeAll(async () => {
      const f = await createBatteryFixtures(sys.api, sys.org, sys.adminToken);
      const pending = await enrollDevice(sys.api, sys.org, { approve: false });
      c = { sys, f, pendingId: pending.id, submissionId: await submitOne(sys, f) };
    });

    it('"JSON/XML with Basic Authentication": the API token as the user name (password x) is let in, JSON and XML alike; another token, or none, is 401', async () => {
      const path = `/api/v2/organizations/${sys.org.orgId}/groups`;
      expect((await sys.api.get(`${path}.json`, { token: sys.org.token })).status).toBe(200);
      expect((await sys.api.get(`${path}.xml`, { token: sys.org.token })).status).toBe(200);
      const basic = (user: string) => ({ headers: { authorization: `Basic ${Buffer.from(user).toString('base64')}` } });
      expect((await sys.api.get(`${path}.json`, basic(`${sys.org.token}:anything`))).status).toBe(200);
      expect((await sys.api.get(`${path}.json`, basic('not-a-token:x'))).status).toBe(401);
      expect((await sys.api.get(`${path}.json`)).status).toBe(401);
      // Another organization's token for this one's path: not found, as everywhere.
      expect((await sys.api.get(`${path}.json`, { token: sys.orgs[1].token })).status).toBe(404);
    });

    it('"all data UTF-8 encoded": UTF-8 text comes back as sent; a body that is not UTF-8 is 400, creating nothing', async () => {
      const groups = `/organizations/${sys.org.orgId}/groups`;
      const name = `Équipe 東京 ${mode} 🚚`;
      const created = await sys.api.post(`${groups}.json`, { token: sys.org.token, json: [name] });
      expect(created.status).toBe(201);
      expect(created.json().groups[0].name).toBe(name);
      const latin1 = Buffer.from('["\xC9quipe latin-1"]', 'latin1');
      const refused = await sys.api.post(`${groups}.json`, { token: sys.org.token, body: latin1, contentType: 'application/json' });
      expect(refused.status).toBe(400);
      const names = (await sys.api.get(`${groups}.json`, { token: sys.org.token })).json().groups.map((g: { name: string }) => g.name);
      expect(names.some((n: string) => n.includes('latin-1'))).toBe(false);
    });

    const send = (endpoint: IndexedEndpoint) => {
      const body = endpoint.body?.(c);
      return sys.api.request(endpoint.method, endpoint.path(c), { token: sys.org.token, ...(body === undefined ? {} : typeof body === 'string' ? { xml: body } : { json: body }) });
    };
    const expectServed = async (endpoint: IndexedEndpoint) => {
      const res = await send(endpoint);
      const expected = Array.isArray(endpoint.status) ? endpoint.status : [endpoint.status];
      expect([endpoint.label, expected.includes(res.status) ? 'as listed' : `${res.status}: ${res.text.slice(0, 200)}`]).toEqual([endpoint.label, 'as listed']);
      // Only the response codes the index lists.
      expect(codes).toContain(res.status);
    };

    if (endpoints.reads.length > 0) {
      it.each(endpoints.reads.map((e) => [e.label, e]))('%s', async (_label, endpoint) => {
        await expectServed(endpoint as IndexedEndpoint);
      });
    }

    it('the listed writes, in order (deletes last)', async () => {
      for (const endpoint of endpoints.writes) await expectServed(endpoint);
    });

  });
}
