import type { ApiResponse } from '../support/api-client';
import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';

/**
 * destination.md (devicemagic/forms_api_docs, doc/api/destination.md), example by example:
 * each documented request is sent as the docs write it, and each documented answer is held
 * to its shape (keys, value types, wrapping), not its values. Formcast adds keys of its own
 * (README says which); the documented ones are all there, with the documented types.
 */

/** A value's shape: its JSON type, or for an object its keys' shapes, for an array its first item's. */
type Shape = string | { [key: string]: Shape } | Shape[];

function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as object).map(([key, inner]) => [key, shapeOf(inner)]));
  return typeof value;
}

/**
 * Every key the documented example has is in the answer, with the same type; a documented
 * `null` (an unset parameter) may be set in the answer, to any type. Returns what differs.
 */
function shapeDifferences(documented: unknown, answered: unknown, path = '$'): string[] {
  if (documented === null) return [];
  if (Array.isArray(documented)) {
    if (!Array.isArray(answered)) return [`${path}: documented an array, answered ${JSON.stringify(shapeOf(answered))}`];
    if (documented.length === 0 || answered.length === 0) return documented.length === 0 ? [] : [`${path}: answered an empty array`];
    return shapeDifferences(documented[0], answered[0], `${path}[0]`);
  }
  if (typeof documented === 'object') {
    if (answered === null || typeof answered !== 'object' || Array.isArray(answered)) return [`${path}: documented an object, answered ${JSON.stringify(shapeOf(answered))}`];
    return Object.entries(documented as Record<string, unknown>).flatMap(([key, inner]) =>
      key in (answered as object) ? shapeDifferences(inner, (answered as Record<string, unknown>)[key], `${path}.${key}`) : [`${path}.${key}: missing`],
    );
  }
  return typeof documented === typeof answered ? [] : [`${path}: documented ${typeof documented}, answered ${answered === null ? 'null' : typeof answered}`];
}

// ---- destination.md's examples, as written there ------------------------------------------

const documentedList = {
  destinations: [
    {
      id: 1,
      description: null,
      active: true,
      format_type: 'text_format',
      format_id: 1,
      transport_type: 'email_transport',
      transport_id: 1,
      binary_transport_type: null,
      binary_transport_id: null,
      created_at: '2015-07-23T12:21:19.000Z',
      updated_at: '2015-07-23T12:21:19.000Z',
    },
  ],
};

const documentedShow = {
  destination: {
    id: 1,
    description: null,
    active: true,
    format_type: 'text_format',
    format_id: 1,
    transport_type: 'email_transport',
    transport_id: 1,
    binary_transport_type: null,
    binary_transport_id: null,
    created_at: '2015-07-23T12:22:31.000Z',
    updated_at: '2015-07-23T12:22:31.000Z',
    text_format: {
      id: 1,
      include_images: null,
      created_at: '2015-07-23T12:22:31.000Z',
      updated_at: '2015-07-23T12:22:31.000Z',
      template: null,
      text_intro: null,
      custom_text_content: null,
      render_template_as_html: null,
      location_in_coordinate_format: null,
      include_answer_attributes: null,
    },
    email_transport: {
      id: 1,
      smtp_address: null,
      smtp_port: null,
      from_domain: null,
      username: null,
      password: null,
      auth_scheme: null,
      from_address: null,
      from_name: null,
      to_addresses: 'bob@lol.com',
      to_address_form_field: null,
      subject_template: null,
      body_template: null,
      created_at: '2015-07-23T12:22:31.000Z',
      updated_at: '2015-07-23T12:22:31.000Z',
      use_tls: null,
      via_custom_smtp: null,
      custom_email_content: null,
      to_address_device_attribute: null,
      encryption: 0,
      skip_bounce_list_check: null,
      allow_no_email: null,
    },
  },
};

/** "Example JSON request body" of the create. */
const documentedCreate = {
  destination: { description: 'Some description', format_selection: 'text_format', transport_selection: 'email_transport' },
  email_transport: { to_addresses: 'test@test.com;test2@test.com' },
};

/** "Example JSON request body with a binary_transport" of the create. */
const documentedCreateWithBinary = {
  destination: { description: 'Some description', format_selection: 'word_format', transport_selection: 'http_transport', binary_transport_selection: 'binary_google_drive_transport' },
  word_format: { file_name_template: 'My_Doc' },
  http_transport: { uri: 'test.com' },
  binary_google_drive_transport: { google_account_email: 'myemail@gmail.com' },
};

/** The update's example, as JSON (the docs' has a trailing comma after the description, which no JSON parser takes). */
const documentedUpdate = {
  destination: { description: 'Brand new description' },
  email_transport: { to_addresses: 'some_other_address@test.com' },
  text_format: { location_in_coordinate_format: true },
};

jest.setTimeout(60_000);

describe.each(systemModes)('destination.md, example by example (%s)', (mode) => {
  // DELIVERY_SMTP_URL: the docs' example names no SMTP server, so the deployment's is used (none is reached here).
  const sys = useSystem(mode, {
    organizations: 2,
    template: { type: 'root', title: 'Docs form', children: [{ identifier: 'question', title: 'Question', type: 'text' }] },
    env: { DELIVERY_SMTP_URL: 'smtp://127.0.0.1:2' },
  });
  const path = (rest = '') => `/api/forms/${sys.template.id}/destinations${rest}`;
  const expectShape = (documented: unknown, res: ApiResponse) => expect(shapeDifferences(documented, res.json())).toEqual([]);
  let created: { id: number };

  beforeAll(async () => {
    const res = await sys.api.post(path('.json'), { token: sys.org.token, json: documentedCreate });
    if (res.status !== 201) throw new Error(`the documented create answered ${res.status}: ${res.text}`);
    created = res.json().destination;
  });

  it('POST …/destinations.json, the documented body: created, answered "in the same format as View destination details"', async () => {
    const res = await sys.api.post(path('.json'), { token: sys.org.token, json: documentedCreate });
    expect(res.status).toBe(201);
    expectShape(documentedShow, res);
    expect(res.json().destination).toMatchObject({ description: 'Some description', format_type: 'text_format', transport_type: 'email_transport' });
    expect(res.json().destination.email_transport.to_addresses).toBe('test@test.com;test2@test.com');
  });

  it('GET …/destinations.json: the documented list', async () => {
    const res = await sys.api.get(path('.json'), { token: sys.org.token });
    expect(res.status).toBe(200);
    expectShape(documentedList, res);
  });

  it('GET …/destinations/<id>.json: the documented detail, each parameter object with its id and times', async () => {
    const res = await sys.api.get(path(`/${created.id}.json`), { token: sys.org.token });
    expect(res.status).toBe(200);
    expectShape(documentedShow, res);
    const { destination } = res.json();
    expect(destination.text_format.id).toBe(destination.format_id);
    expect(destination.email_transport.id).toBe(destination.transport_id);
    // Every documented key, in the documented order (Formcast's own come after).
    expect(Object.keys(destination.text_format)).toEqual(Object.keys(documentedShow.destination.text_format));
    expect(Object.keys(destination.email_transport)).toEqual(Object.keys(documentedShow.destination.email_transport));
  });

  it('PUT …/destinations/<id>.json, the documented body: the description and parameters change, the format and transport stay', async () => {
    const res = await sys.api.put(path(`/${created.id}.json`), { token: sys.org.token, json: documentedUpdate });
    expect(res.status).toBe(200);
    expectShape(documentedShow, res);
    expect(res.json().destination).toMatchObject({
      description: 'Brand new description',
      format_type: 'text_format',
      email_transport: { to_addresses: 'some_other_address@test.com' },
      text_format: { location_in_coordinate_format: true },
    });
  });

  it('the documented create with a binary transport: refused with 400 naming what Formcast does not carry, and nothing made', async () => {
    const before = (await sys.api.get(path('.json'), { token: sys.org.token })).json().destinations.length;
    const res = await sys.api.post(path('.json'), { token: sys.org.token, json: documentedCreateWithBinary });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/destination\.binary_transport_selection|destination\.format_selection/);
    expect((await sys.api.get(path('.json'), { token: sys.org.token })).json().destinations).toHaveLength(before);
  });

  it('the documented word_format parameters are taken and shown, with their record (over email, where Formcast sends documents)', async () => {
    const res = await sys.api.post(path('.json'), {
      token: sys.org.token,
      json: { destination: { description: 'Some description', format_selection: 'word_format', transport_selection: 'email_transport' }, word_format: { file_name_template: 'My_Doc' }, email_transport: { to_addresses: 'test@test.com' } },
    });
    expect(res.status).toBe(201);
    expect(res.json().destination.word_format).toEqual({
      id: res.json().destination.format_id,
      file_name_template: 'My_Doc',
      template_resource_id: null,
      created_at: res.json().destination.created_at,
      updated_at: res.json().destination.created_at,
    });
    const pdf = await sys.api.post(path('.json'), {
      token: sys.org.token,
      json: { destination: { format_selection: 'pdf_format', transport_selection: 'email_transport' }, email_transport: { to_addresses: 'test@test.com' } },
    });
    expect(pdf.status).toBe(201);
    expect(Object.keys(pdf.json().destination.pdf_format)).toEqual(['id', 'file_name_template', 'include_images', 'location_in_coordinate_format', 'created_at', 'updated_at']);
  });

  it('DELETE …/destinations/<id>.json: 200; another organization\'s id is 404', async () => {
    const other = await sys.api.delete(path(`/${created.id}.json`), { token: sys.orgs[1]!.token });
    expect(other.status).toBe(404);
    const res = await sys.api.delete(path(`/${created.id}.json`), { token: sys.org.token });
    expect(res.status).toBe(200);
    expect((await sys.api.get(path(`/${created.id}.json`), { token: sys.org.token })).status).toBe(404);
  });
});
