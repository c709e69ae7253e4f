import type { ApiClient } from './support/api-client';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<groups><group><name>&lol3;</name></group></groups>`;

const externalEntity = `<?xml version="1.0"?>
<!DOCTYPE groups [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<groups><group><name>&xxe;</name></group></groups>`;

describe.each(systemModes)('Bad input gets a clear 4xx and changes nothing (%s)', (mode) => {
  const sys = useSystem(mode, { env: { BODY_LIMIT_BYTES: '4096' }, organizations: 1 });
  let groupsBefore: string;

  beforeAll(async () => {
    groupsBefore = (await sys.api.get(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token })).text;
  });
  afterEach(async () => {
    const after = await sys.api.get(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token });
    expect(after.text).toBe(groupsBefore);
  });

  const post = (options: Parameters<ApiClient['post']>[1]) =>
    sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, ...options });

  it.each([
    ['malformed JSON', { body: '["unclosed', contentType: 'application/json' }, 400, /Malformed JSON/],
    ['malformed XML', { body: '<groups><group><name>x</group></groups>', contentType: 'application/xml' }, 400, /Malformed XML/],
    ['a billion-laughs DOCTYPE', { body: billionLaughs, contentType: 'application/xml' }, 400, /DOCTYPE/],
    ['an external entity', { body: externalEntity, contentType: 'text/xml' }, 400, /DOCTYPE/],
    ['the wrong XML root', { body: '<group><name>x</name></group>', contentType: 'application/xml' }, 400, /<groups>/],
    ['XML nested too deep', { body: `<groups>${'<a>'.repeat(200)}${'</a>'.repeat(200)}</groups>`, contentType: 'application/xml' }, 400, /XML/],
    ['a JSON object instead of an array', { json: { name: 'x' } }, 400, /array of group names/],
    ['a number instead of a name', { json: [42] }, 400, /group names\[0\]: must be a string/],
    ['an empty name', { json: [''] }, 400, /names/],
    ['an empty body', { body: '', contentType: 'application/json' }, 400, /JSON array|group names/],
    ['an unsupported content type', { body: 'name=x', contentType: 'text/csv' }, 415, /Content-Type/],
    ['invalid UTF-8', { body: Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]), contentType: 'application/json' }, 400, /UTF-8/],
    ['an oversized body', { json: ['x'.repeat(10000)] }, 413, /too large/],
  ])('refuses %s', async (_name, options, status, message) => {
    const res = await post(options);
    expect(res.status).toBe(status);
    expect(res.text).toMatch(message);
  });

  it('refuses wrong types in a group update with 400 naming the field', async () => {
    const groups = JSON.parse(groupsBefore).groups;
    const path = `/organizations/${sys.org.orgId}/groups/${groups[0].id}`;
    for (const [body, field] of [
      [{ group: { form_ids: ['1'] } }, /form_ids/],
      [{ group: { device_ids: 'all' } }, /device_ids/],
      [{ group: { name: ['x'] } }, /name/],
      [{ group: { form_ids: [{ $gt: 0 }] } }, /form_ids/],
      [[], /group/],
    ] as const) {
      const res = await sys.api.put(path, { token: sys.org.token, json: body });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(field);
    }
    const xml = await sys.api.put(path, { token: sys.org.token, xml: '<group><form_ids><form_id>abc</form_id></form_ids></group>' });
    expect(xml.status).toBe(400);
    expect(xml.text).toMatch(/form_ids/);
  });
});
