import { createTemplate, inspectionForm, type TestTemplate } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/**
 * An address the policy allows without DELIVERY_ALLOW_PRIVATE_NETWORKS (public unicast, an
 * IP literal so no name is resolved). Nothing is submitted in this suite, so nothing is sent.
 */
const publicUri = 'https://93.184.215.14/hooks/formcast';
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
const secret = expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/);

const followUpForm = {
  type: 'root',
  title: 'Follow-up visit',
  children: [{ identifier: 'client', title: 'Client', type: 'text' }],
};

const destinationsPath = (formId: number, rest = '') => `/api/forms/${formId}/destinations${rest}`;
const connectionsPath = (orgId: number, formId: number, rest = '') => `/organizations/${orgId}/forms/${formId}/remote_connections${rest}`;

function jsonHttpBody(uri = publicUri, extra: object = {}) {
  return {
    destination: { description: 'Our CRM', format_selection: 'json_format', transport_selection: 'http_transport' },
    json_format: {},
    http_transport: { uri, headers: { 'X-Api-Key': 'k-123' } },
    ...extra,
  };
}

/** This suite's DELIVERY_MAX_DESTINATIONS_PER_FORM (the suite's own form holds fewer). */
const maxDestinations = 12;

describe.each(systemModes)('Destinations API and Connections API (%s)', (mode) => {
  // No DELIVERY_ALLOW_PRIVATE_NETWORKS: the default, which refuses private addresses.
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm, env: { DELIVERY_MAX_DESTINATIONS_PER_FORM: String(maxDestinations) } });
  let followUp: TestTemplate;
  let othersForm: TestTemplate;

  beforeAll(async () => {
    followUp = await createTemplate(sys.api, sys.org, followUpForm);
    othersForm = await createTemplate(sys.api, sys.orgs[1], followUpForm);
  });

  const create = (body: unknown, formId = sys.template.id) => sys.api.post(destinationsPath(formId, '.json'), { token: sys.org.token, json: body });

  it('creates a destination (201), showing its parameters nested by name and its secret once', async () => {
    const res = await create(jsonHttpBody());
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { destination } = res.json();
    expect(destination).toEqual({
      id: expect.any(Number),
      description: 'Our CRM',
      active: true,
      format_type: 'json_format',
      format_id: destination.id,
      transport_type: 'http_transport',
      transport_id: destination.id,
      binary_transport_type: null,
      binary_transport_id: null,
      created_at: iso,
      updated_at: iso,
      deactivated_reason: null,
      deactivated_at: null,
      // Each parameter object is its record: its id (format_id, transport_id) and its times (destination.md).
      json_format: { id: destination.id, created_at: iso, updated_at: iso },
      http_transport: { id: destination.id, uri: publicUri, headers: { 'X-Api-Key': 'k-123' }, created_at: iso, updated_at: iso },
      secret,
      previous_secret_expires_at: null,
    });

    const shown = await sys.api.get(destinationsPath(sys.template.id, `/${destination.id}.json`), { token: sys.org.token });
    expect(shown.status).toBe(200);
    const { secret: _secret, previous_secret_expires_at: _expires, ...detail } = destination;
    expect(shown.json()).toEqual({ destination: detail });
    // Without the suffix too.
    expect((await sys.api.get(destinationsPath(sys.template.id, `/${destination.id}`), { token: sys.org.token })).json()).toEqual({ destination: detail });
  });

  it('lists the form\'s destinations, ascending, without their parameters', async () => {
    const form = await createTemplate(sys.api, sys.org, followUpForm);
    expect((await sys.api.get(destinationsPath(form.id, '.json'), { token: sys.org.token })).json()).toEqual({ destinations: [] });
    const first = (await create(jsonHttpBody(), form.id)).json().destination;
    const second = (
      await create(
        {
          destination: { description: null, format_selection: 'xml_format', transport_selection: 'dispatch_transport' },
          dispatch_transport: { form_namespace: followUp.namespace, field_map: { client: 'customer_name' } },
        },
        form.id,
      )
    ).json().destination;
    const list = await sys.api.get(destinationsPath(form.id), { token: sys.org.token });
    expect(list.status).toBe(200);
    const listed = (d: Record<string, unknown>) => {
      const { secret: _s, previous_secret_expires_at: _p, json_format: _j, xml_format: _x, http_transport: _h, dispatch_transport: _d, ...view } = d;
      return view;
    };
    expect(list.json()).toEqual({ destinations: [listed(first), listed(second)] });
    expect(second).toMatchObject({
      description: null,
      format_type: 'xml_format',
      transport_type: 'dispatch_transport',
      xml_format: {},
      dispatch_transport: { form_namespace: followUp.namespace, field_map: { client: 'customer_name' } },
    });
  });

  it('updates the description, active and its transport\'s parameters (200); format and transport stay', async () => {
    const { id } = (await create(jsonHttpBody())).json().destination;
    const path = destinationsPath(sys.template.id, `/${id}.json`);
    const res = await sys.api.put(path, {
      token: sys.org.token,
      json: { destination: { description: 'Renamed', active: false }, http_transport: { uri: `${publicUri}/v2` } },
    });
    expect(res.status).toBe(200);
    expect(res.json().destination).toMatchObject({ id, description: 'Renamed', active: false, http_transport: { uri: `${publicUri}/v2` } });
    expect(res.json().destination.secret).toBeUndefined();
    expect((await sys.api.get(path, { token: sys.org.token })).json().destination).toMatchObject({ description: 'Renamed', active: false });

    const reactivated = await sys.api.put(path, { token: sys.org.token, json: { destination: { active: true } } });
    expect(reactivated.json().destination).toMatchObject({ active: true, description: 'Renamed', deactivated_reason: null });

    const otherFormat = await sys.api.put(path, { token: sys.org.token, json: { destination: { format_selection: 'xml_format' } } });
    expect(otherFormat.status).toBe(400);
    expect(otherFormat.text).toMatch(/format_selection: cannot change: create a new destination instead/);
    const otherTransport = await sys.api.put(path, {
      token: sys.org.token,
      json: { dispatch_transport: { form_namespace: followUp.namespace } },
    });
    expect(otherTransport.status).toBe(400);
    expect(otherTransport.text).toMatch(/dispatch_transport: this destination uses http_transport/);
    const privateNow = await sys.api.put(path, { token: sys.org.token, json: { http_transport: { uri: 'http://10.0.0.7/hook' } } });
    expect(privateNow.status).toBe(400);
    expect(privateNow.text).toMatch(/DELIVERY_ALLOW_PRIVATE_NETWORKS=true/);
  });

  it('rotates the secret: a new one shown once, the old one signing for a day by default, or as long as asked', async () => {
    const created = (await create(jsonHttpBody())).json().destination;
    const path = destinationsPath(sys.template.id, `/${created.id}/rotate_secret.json`);
    const before = Date.now();
    const res = await sys.api.post(path, { token: sys.org.token });
    expect(res.status).toBe(200);
    const rotated = res.json().destination;
    expect(rotated).toMatchObject({ id: created.id, secret, previous_secret_expires_at: iso });
    expect(rotated.secret).not.toBe(created.secret);
    const expires = Date.parse(rotated.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000);

    const short = await sys.api.post(path, { token: sys.org.token, json: { overlap_seconds: 60 } });
    expect(short.status).toBe(200);
    expect(Date.parse(short.json().destination.previous_secret_expires_at)).toBeLessThanOrEqual(Date.now() + 61_000);
    const bad = await sys.api.post(path, { token: sys.org.token, json: { overlap_seconds: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/overlap_seconds/);
    expect((await sys.api.get(destinationsPath(sys.template.id, `/${created.id}.json`), { token: sys.org.token })).json().destination.secret).toBeUndefined();
  });

  it('shows an empty delivery log, paged, and refuses bad paging; redelivering an unknown delivery is 404', async () => {
    const { id } = (await create(jsonHttpBody())).json().destination;
    const log = await sys.api.get(destinationsPath(sys.template.id, `/${id}/deliveries.json`), { token: sys.org.token });
    expect(log.status).toBe(200);
    expect(log.json()).toEqual({ per_page: 20, current_page: 1, total_pages: 0, current_count: 0, total_count: 0, deliveries: [] });
    const paged = await sys.api.get(destinationsPath(sys.template.id, `/${id}/deliveries?page=3&per_page=5`), { token: sys.org.token });
    expect(paged.json()).toMatchObject({ per_page: 5, current_page: 3, deliveries: [] });
    for (const query of ['page=0', 'page=x', 'per_page=-2', 'per_page=101']) {
      const bad = await sys.api.get(destinationsPath(sys.template.id, `/${id}/deliveries.json?${query}`), { token: sys.org.token });
      expect(bad.status).toBe(400);
      expect(bad.text).toMatch(new RegExp(query.split('=')[0]!));
    }
    const unknownLog = await sys.api.get(destinationsPath(sys.template.id, '/999999/deliveries.json'), { token: sys.org.token });
    expect(unknownLog.status).toBe(404);
    const redeliver = await sys.api.post(destinationsPath(sys.template.id, `/${id}/deliveries/999999/redeliver.json`), { token: sys.org.token });
    expect(redeliver.status).toBe(404);
    expect(redeliver.json()).toMatchObject({ status: '404', error: 'Not Found' });
  });

  it('deletes a destination (200, empty); it is gone from show and list', async () => {
    const { id } = (await create(jsonHttpBody())).json().destination;
    const res = await sys.api.delete(destinationsPath(sys.template.id, `/${id}.json`), { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await sys.api.get(destinationsPath(sys.template.id, `/${id}.json`), { token: sys.org.token })).status).toBe(404);
    const listed = (await sys.api.get(destinationsPath(sys.template.id, '.json'), { token: sys.org.token })).json().destinations;
    expect(listed.map((d: { id: number }) => d.id)).not.toContain(id);
    expect((await sys.api.delete(destinationsPath(sys.template.id, `/${id}.json`), { token: sys.org.token })).status).toBe(404);
  });

  describe('bad input: 400 naming what is wrong, and nothing saved', () => {
    const refusals: Array<[string, () => unknown, RegExp]> = [
      ['an unknown format', () => ({ ...jsonHttpBody(), destination: { format_selection: 'csv_format', transport_selection: 'http_transport' } }), /destination\.format_selection: must be one of json_format, xml_format/],
      ['an unknown transport', () => ({ ...jsonHttpBody(), destination: { format_selection: 'json_format', transport_selection: 'sms_transport' } }), /destination\.transport_selection: must be one of http_transport, dispatch_transport, email_transport/],
      ['a transport without its parameters', () => ({ destination: { format_selection: 'json_format', transport_selection: 'http_transport' } }), /http_transport: is required/],
      [
        'dispatch_transport without xml_format',
        () => ({ destination: { format_selection: 'json_format', transport_selection: 'dispatch_transport' }, dispatch_transport: { form_namespace: followUp.namespace } }),
        /destination\.format_selection: must be xml_format with dispatch_transport/,
      ],
      [
        'dispatch_transport to a form the organization does not have',
        () => ({ destination: { format_selection: 'xml_format', transport_selection: 'dispatch_transport' }, dispatch_transport: { form_namespace: othersForm.namespace } }),
        /dispatch_transport\.form_namespace: no form of this organization has namespace/,
      ],
      ['a uri that is not http', () => jsonHttpBody('ftp://93.184.215.14/x'), /http_transport\.uri: must be an http or https URL/],
      ['a uri that is not a URL', () => jsonHttpBody('not a url'), /http_transport\.uri: must be an http or https URL/],
      ['a uri with credentials', () => jsonHttpBody('https://user:pw@93.184.215.14/x'), /without credentials/],
      ['a reserved header', () => ({ ...jsonHttpBody(), http_transport: { uri: publicUri, headers: { 'Webhook-Signature': 'x' } } }), /may not set/],
      ['a loopback address', () => jsonHttpBody('http://127.0.0.1:8080/hook'), /127\.0\.0\.1 is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks/],
      ['a name resolving to loopback', () => jsonHttpBody('http://localhost:8080/hook'), /localhost resolves to .* set DELIVERY_ALLOW_PRIVATE_NETWORKS=true/],
      ['a private address', () => jsonHttpBody('http://192.168.1.20/hook'), /192\.168\.1\.20 is a private address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true/],
      ['the cloud metadata address', () => jsonHttpBody('http://169.254.169.254/latest/meta-data'), /cloud metadata address, which destinations may never reach/],
      ['a body that is not an object', () => [jsonHttpBody()], /Expected a JSON object/],
      ['an IPv4-compatible IPv6 address of the metadata service', () => jsonHttpBody('http://[::a9fe:a9fe]/'), /169\.254\.169\.254 is a cloud metadata address/],
      ['the metadata address written into ::/96', () => jsonHttpBody('http://[::169.254.169.254]/latest'), /169\.254\.169\.254 is a cloud metadata address/],
      ['loopback written into ::/96', () => jsonHttpBody('http://[::127.0.0.1]/hook'), /127\.0\.0\.1 is a loopback address/],
      ['loopback through NAT64', () => jsonHttpBody('http://[64:ff9b::7f00:1]/hook'), /127\.0\.0\.1 is a loopback address/],
      ['the metadata address through 6to4', () => jsonHttpBody('http://[2002:a9fe:a9fe::1]/hook'), /cloud metadata/],
      ['loopback as a Teredo client', () => jsonHttpBody('http://[2001:0:4136:e378::80ff:fffe]/hook'), /127\.0\.0\.1 is a loopback address/],
      ['the scheme in capitals, to a loopback address', () => jsonHttpBody('HTTP://127.0.0.1/hook'), /127\.0\.0\.1 is a loopback address/],
      ['a header value outside Latin-1', () => ({ ...jsonHttpBody(), http_transport: { uri: publicUri, headers: { 'X-Team': 'Zürich ✓' } } }), /http_transport\.headers\.X-Team: contains U\+2713/],
      ['a header value with DEL', () => ({ ...jsonHttpBody(), http_transport: { uri: publicUri, headers: { 'X-Team': 'a\u007fb' } } }), /contains U\+007F/],
      ...['TE', 'Trailer', 'Keep-Alive', 'Upgrade', 'Proxy-Authorization', 'Proxy-Connection'].map((name): [string, () => unknown, RegExp] => [
        `the hop-by-hop header ${name}`,
        () => ({ ...jsonHttpBody(), http_transport: { uri: publicUri, headers: { [name]: 'trailers' } } }),
        new RegExp(`http_transport\\.headers\\.${name}: a hop-by-hop header`),
      ]),
    ];

    it.each(refusals)('%s', async (_, body, message) => {
      const form = await createTemplate(sys.api, sys.org, followUpForm);
      const res = await create(body(), form.id);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.text).toMatch(/^response_type: ERROR\nresponse_code: bad_request\nmessage: /);
      expect(res.text).toMatch(message);
      expect((await sys.api.get(destinationsPath(form.id, '.json'), { token: sys.org.token })).json()).toEqual({ destinations: [] });
    });

    it('refuses a body that is not JSON', async () => {
      const res = await sys.api.post(destinationsPath(sys.template.id, '.json'), { token: sys.org.token, body: 'uri=x', contentType: 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(415);
      const malformed = await sys.api.post(destinationsPath(sys.template.id, '.json'), { token: sys.org.token, body: '{"destination":', contentType: 'application/json' });
      expect(malformed.status).toBe(400);
    });
  });

  it('takes the scheme in any case (HTTPS://) and a Latin-1 header value', async () => {
    const form = await createTemplate(sys.api, sys.org, followUpForm);
    const uri = publicUri.replace(/^https:/, 'HTTPS:');
    const res = await create({ ...jsonHttpBody(uri), http_transport: { uri, headers: { 'X-Team': 'Zürich' } } }, form.id);
    expect(res.status).toBe(201);
    expect(res.json().destination.http_transport.headers).toEqual({ 'X-Team': 'Zürich' });
  });

  it(`caps a form's destinations (DELIVERY_MAX_DESTINATIONS_PER_FORM): one more is 422 and nothing is saved; another organization's form is unchanged`, async () => {
    const form = await createTemplate(sys.api, sys.org, followUpForm);
    const theirsBefore = (await sys.api.get(destinationsPath(othersForm.id, '.json'), { token: sys.orgs[1].token })).text;
    for (let n = 0; n < maxDestinations; n += 1) expect((await create(jsonHttpBody(), form.id)).status).toBe(201);
    const refused = await create(jsonHttpBody(), form.id);
    expect(refused.status).toBe(422);
    expect(refused.json()).toMatchObject({ status: '422', message: expect.stringMatching(/DELIVERY_MAX_DESTINATIONS_PER_FORM=12/) });
    const connection = await sys.api.post(connectionsPath(sys.org.orgId, form.id), {
      token: sys.org.token,
      xml: `<remote_connections><http_connection><remote_url>${publicUri}</remote_url></http_connection></remote_connections>`,
    });
    expect(connection.status).toBe(422);
    const listed = (await sys.api.get(destinationsPath(form.id, '.json'), { token: sys.org.token })).json().destinations;
    expect(listed).toHaveLength(maxDestinations);
    // One deleted: room for one again.
    expect((await sys.api.delete(destinationsPath(form.id, `/${listed[0].id}.json`), { token: sys.org.token })).status).toBe(200);
    expect((await create(jsonHttpBody(), form.id)).status).toBe(201);
    expect((await sys.api.get(destinationsPath(othersForm.id, '.json'), { token: sys.orgs[1].token })).text).toBe(theirsBefore);
  });

  describe('Connections API (XML)', () => {
    const connectionXml = (url: string, name = 'My Connection') =>
      `<remote_connections><http_connection><name>${name}</name><remote_url>${url}</remote_url>` +
      '<headers><header_1>value_1</header_1><Authorization>Bearer abc</Authorization></headers></http_connection></remote_connections>';

    it('creates an http_transport destination with xml_format (201), the same record the Destinations API shows', async () => {
      const form = await createTemplate(sys.api, sys.org, followUpForm);
      const res = await sys.api.post(connectionsPath(sys.org.orgId, form.id), { token: sys.org.token, xml: connectionXml(`${publicUri}?a=1&amp;b=2`) });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      const id = Number(/<id type="integer">(\d+)<\/id>/.exec(res.text)?.[1]);
      const signingSecret = /<secret>(whsec_[^<]+)<\/secret>/.exec(res.text)?.[1];
      expect(signingSecret).toEqual(secret);

      const shown = await sys.api.get(destinationsPath(form.id, `/${id}.json`), { token: sys.org.token });
      const destination = shown.json().destination;
      expect(destination).toMatchObject({
        id,
        description: 'My Connection',
        active: true,
        format_type: 'xml_format',
        transport_type: 'http_transport',
        xml_format: {},
        http_transport: { uri: `${publicUri}?a=1&b=2`, headers: { header_1: 'value_1', Authorization: 'Bearer abc' } },
      });
      const connection = (extra: string) =>
        '  <http_connection>\n' +
        `    <id type="integer">${id}</id>\n` +
        '    <name>My Connection</name>\n' +
        `    <remote_url>${publicUri}?a=1&amp;b=2</remote_url>\n` +
        '    <headers>\n      <header_1>value_1</header_1>\n      <Authorization>Bearer abc</Authorization>\n    </headers>\n' +
        '    <format>xml_format</format>\n' +
        '    <active type="boolean">true</active>\n' +
        '    <deactivated_reason nil="true"/>\n' +
        '    <deactivated_at nil="true"/>\n' +
        `    <created_at type="dateTime">${destination.created_at}</created_at>\n` +
        `    <updated_at type="dateTime">${destination.updated_at}</updated_at>\n` +
        extra +
        '  </http_connection>\n';
      const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
      expect(res.text).toBe(`${declaration}<remote_connections type="array">\n${connection(`    <secret>${signingSecret}</secret>\n`)}</remote_connections>\n`);

      const listed = await sys.api.get(connectionsPath(sys.org.orgId, form.id, '.xml'), { token: sys.org.token });
      expect(listed.status).toBe(200);
      expect(listed.text).toBe(`${declaration}<remote_connections type="array">\n${connection('')}</remote_connections>\n`);
      const one = await sys.api.get(connectionsPath(sys.org.orgId, form.id, `/${id}.xml`), { token: sys.org.token });
      expect(one.text).toBe(declaration + connection('').replace(/^ {2}/gm, ''));
    });

    it('lists only http destinations, deletes a connection (200), and answers an empty list as an empty array', async () => {
      const form = await createTemplate(sys.api, sys.org, followUpForm);
      const empty = await sys.api.get(connectionsPath(sys.org.orgId, form.id), { token: sys.org.token });
      expect(empty.text).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<remote_connections type="array"/>\n');
      const dispatch = await create(
        { destination: { format_selection: 'xml_format', transport_selection: 'dispatch_transport' }, dispatch_transport: { form_namespace: followUp.namespace } },
        form.id,
      );
      const json = (await create(jsonHttpBody(), form.id)).json().destination;
      const listed = (await sys.api.get(connectionsPath(sys.org.orgId, form.id), { token: sys.org.token })).text;
      expect(listed.match(/<http_connection>/g)).toHaveLength(1);
      expect(listed).toContain(`<id type="integer">${json.id}</id>`);
      expect(listed).toContain('<format>json_format</format>');
      const dispatchId = dispatch.json().destination.id;
      expect((await sys.api.get(connectionsPath(sys.org.orgId, form.id, `/${dispatchId}`), { token: sys.org.token })).status).toBe(404);
      expect((await sys.api.delete(connectionsPath(sys.org.orgId, form.id, `/${dispatchId}`), { token: sys.org.token })).status).toBe(404);

      const deleted = await sys.api.delete(connectionsPath(sys.org.orgId, form.id, `/${json.id}.xml`), { token: sys.org.token });
      expect(deleted.status).toBe(200);
      expect(deleted.text).toBe('');
      expect((await sys.api.get(destinationsPath(form.id, `/${json.id}.json`), { token: sys.org.token })).status).toBe(404);
    });

    it('refuses bad connections with 400 in its own terms, and makes none of a request that has one', async () => {
      const form = await createTemplate(sys.api, sys.org, followUpForm);
      const post = (xml: string) => sys.api.post(connectionsPath(sys.org.orgId, form.id), { token: sys.org.token, xml });
      const cases: Array<[string, RegExp]> = [
        [connectionXml('http://127.0.0.1:9/deliver'), /remote_url: 127\.0\.0\.1 is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true/],
        [connectionXml('gopher://93.184.215.14/'), /remote_url: must be an http or https URL/],
        ['<remote_connections><http_connection><name>x</name></http_connection></remote_connections>', /http_connection\.remote_url: is required/],
        ['<remote_connections/>', /at least one <http_connection>/],
        ['<remote_connections><email_connection><to>a@b.c</to></email_connection></remote_connections>', /only <http_connection> is supported, not <email_connection>/],
        ['<connections><http_connection/></connections>', /root element must be <remote_connections>/],
        [connectionXml(publicUri, 'x'.repeat(256)), /name: must be at most 255 characters/],
        [
          `<remote_connections><http_connection><remote_url>${publicUri}</remote_url></http_connection>` +
            '<http_connection><remote_url>http://10.1.1.1/</remote_url></http_connection></remote_connections>',
          /remote_url: 10\.1\.1\.1 is a private address/,
        ],
        ['<!DOCTYPE x [<!ENTITY e "e">]><remote_connections/>', /DOCTYPE/],
      ];
      for (const [xml, message] of cases) {
        const res = await post(xml);
        expect(res.status).toBe(400);
        expect(res.text).toMatch(message);
      }
      expect((await sys.api.get(destinationsPath(form.id, '.json'), { token: sys.org.token })).json()).toEqual({ destinations: [] });
      expect((await sys.api.post(connectionsPath(sys.org.orgId, form.id), { token: sys.org.token, json: {} })).status).toBe(400);
    });
  });

  it("answers 404 on every route for another organization's form, and 401 without the token", async () => {
    const theirs = sys.orgs[1];
    const own = (await create(jsonHttpBody())).json().destination;
    const foreign = (
      await sys.api.post(destinationsPath(othersForm.id, '.json'), {
        token: theirs.token,
        json: { ...jsonHttpBody(), destination: { format_selection: 'json_format', transport_selection: 'http_transport' } },
      })
    ).json().destination;
    expect(foreign.id).toEqual(expect.any(Number));

    const routes = (formId: number, destinationId: number): Array<[string, string, object?]> => [
      ['GET', destinationsPath(formId, '.json')],
      ['POST', destinationsPath(formId, '.json'), jsonHttpBody()],
      ['GET', destinationsPath(formId, `/${destinationId}.json`)],
      ['PUT', destinationsPath(formId, `/${destinationId}.json`), { destination: { description: 'mine now' } }],
      ['DELETE', destinationsPath(formId, `/${destinationId}.json`)],
      ['POST', destinationsPath(formId, `/${destinationId}/rotate_secret.json`)],
      ['GET', destinationsPath(formId, `/${destinationId}/deliveries.json`)],
      ['POST', destinationsPath(formId, `/${destinationId}/deliveries/1/redeliver.json`)],
    ];
    for (const [method, path, json] of routes(othersForm.id, foreign.id)) {
      const res = await sys.api.request(method, path, { token: sys.org.token, json });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(res.json()).toMatchObject({ status: '404', error: 'Not Found' });
    }
    // The other organization's destination under our own form is 404 too.
    expect((await sys.api.get(destinationsPath(sys.template.id, `/${foreign.id}.json`), { token: sys.org.token })).status).toBe(404);
    const connectionRoutes: Array<[string, string, string?]> = [
      ['GET', connectionsPath(sys.org.orgId, othersForm.id)],
      ['POST', connectionsPath(sys.org.orgId, othersForm.id), `<remote_connections><http_connection><remote_url>${publicUri}</remote_url></http_connection></remote_connections>`],
      ['GET', connectionsPath(sys.org.orgId, othersForm.id, `/${foreign.id}`)],
      ['DELETE', connectionsPath(sys.org.orgId, othersForm.id, `/${foreign.id}`)],
      ['GET', connectionsPath(theirs.orgId, othersForm.id)],
      ['GET', connectionsPath(theirs.orgId, othersForm.id, `/${foreign.id}`)],
    ];
    for (const [method, path, xml] of connectionRoutes) {
      const res = await sys.api.request(method, path, { token: sys.org.token, xml });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    // Nothing of theirs changed.
    const still = await sys.api.get(destinationsPath(othersForm.id, `/${foreign.id}.json`), { token: theirs.token });
    expect(still.json().destination).toMatchObject({ id: foreign.id, description: null, active: true });
    expect((await sys.api.get(destinationsPath(othersForm.id, '.json'), { token: theirs.token })).json().destinations).toHaveLength(1);

    for (const [method, path, json] of routes(sys.template.id, own.id)) {
      const res = await sys.api.request(method, path, { json });
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Formcast API"');
    }
  });
});
