import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ApiResponse } from './support/api-client';
import { enrollDevice, type TestDevice } from './support/fixtures';
import { inspectionForm, pushJson } from './support/push-fixtures';
import { useSystem } from './support/use-system';

/**
 * Strings of all of Unicode through every text field of the API, in JSON and in XML (or a
 * form body): each write either answers 400 naming the field (and must, when the text holds
 * a character XML 1.0 cannot carry or a lone surrogate) or stores the text exactly; and
 * afterwards every listing that shows the field is a document an XML parser reads, and its
 * JSON holds no such character.
 */

/** Characters XML 1.0 cannot carry, lone surrogates included: what a write must refuse. */
const unwritable = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const forbidden = fc.constantFrom('\u0000', '\u0001', '\u0007', '\u0008', '\u000B', '\u000C', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF');
const allowedControl = fc.constantFrom('\t', '\n', '\r', ' ');
const letter = fc.constantFrom(...'abcXYZ019 _-');
/** Mostly ordinary text, with any code point, any UTF-16 unit (lone surrogates) and the forbidden ones mixed in. */
const anyText = fc.string({
  unit: fc.oneof(
    { weight: 4, arbitrary: letter },
    { weight: 4, arbitrary: anyCodePoint },
    { weight: 1, arbitrary: anyCodeUnit },
    { weight: 1, arbitrary: forbidden },
    { weight: 1, arbitrary: allowedControl },
  ),
  minLength: 1,
  maxLength: 24,
});

const runsPerField = Number(process.env.PROPERTY_RUNS ?? 50);

/**
 * Text as XML element content, every character but letters and digits as a character
 * reference: nothing the parser trims or normalizes (edge spaces, CR), and the forbidden
 * ones arrive the way an attacker would send them (`&#7;`, `&#xD800;`).
 */
function xmlText(text: string): string {
  let out = '';
  for (const char of text) out += /^[A-Za-z0-9]$/.test(char) ? char : `&#x${char.codePointAt(0)!.toString(16)};`;
  return out;
}

/** Group names are stored trimmed (String.prototype.trim, by the directory's schema). */
const trimmed = (text: string) => text.trim();

/** Lone surrogates as U+FFFD, as UTF-8 encoding makes them. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function holdsUnwritable(value: unknown): boolean {
  if (typeof value === 'string') return unwritable.test(value);
  if (Array.isArray(value)) return value.some(holdsUnwritable);
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([key, item]) => unwritable.test(key) || holdsUnwritable(item));
  return false;
}

const responseParser = new XMLParser({ parseTagValue: false, ignoreAttributes: true });

interface TextField {
  /** What the case writes, e.g. `group name (JSON create)`. */
  name: string;
  /** What a refusal names. */
  field: RegExp;
  write(text: string): Promise<ApiResponse>;
  /** The stored text after an accepted write. */
  readBack(res: ApiResponse): Promise<unknown>;
  /** What the request carries of `text` (the text itself unless its format cannot carry it). */
  carried?(text: string): string;
  /** What is stored of the carried text, when the API normalizes it (group names are trimmed). */
  stored?(text: string): string;
  /** XML listings that show the field (each with its JSON twin, or null when it has none). */
  listings: Array<[xml: string | null, json: string | null]>;
  /** Removes what an accepted write made, so listings stay small. */
  cleanup?(res: ApiResponse): Promise<unknown>;
}

describe('Every text field, every format: 400 or stored exactly, and every listing parses (embedded)', () => {
  const sys = useSystem('embedded', { env: { BODY_LIMIT_BYTES: '262144' }, organizations: 1, template: inspectionForm, hookTimeoutMs: 60_000 });
  let device: TestDevice;
  let renamableGroupId: number;
  let outstandingId: number;
  let submittedAt = Date.parse('2031-01-01T00:00:00.000Z');

  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org, { owner: 'Property' });
    const group = await sys.api.post(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token, json: [`Renamable ${Date.now()}`] });
    renamableGroupId = group.json().groups[0].id;
    const pushed = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} });
    outstandingId = pushed.json().oneshot_list[0].id;
  });

  const org = (rest: string) => `/organizations/${sys.org.orgId}${rest}`;
  const token = () => ({ token: sys.org.token });
  const groupListings: TextField['listings'] = [['/organizations/ORG/groups.xml', '/organizations/ORG/groups.json']];
  const oneshotListings: TextField['listings'] = [
    ['/organizations/ORG/oneshots.xml', '/organizations/ORG/oneshots.json'],
    [`/clients/${'DEVICE'}/oneshots.xml`, `/clients/${'DEVICE'}/oneshots.json`],
  ];
  const deviceListings: TextField['listings'] = [
    ['/organizations/ORG/devices.xml', '/organizations/ORG/devices.json'],
    ['/api/v3/submission_authors.xml', '/api/v3/submission_authors.json'],
  ];
  const destinationListings: TextField['listings'] = [[`/organizations/ORG/forms/${'FORM'}/remote_connections.xml`, `/api/forms/${'FORM'}/destinations.json`]];
  const revoke = (res: ApiResponse) => sys.api.delete(`/clients/${device.identifier}/oneshots/${res.json().oneshot_list[0].id}`, token());
  const oneshotJson = (fields: object) => pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {}, ...fields });
  const oneshotXml = (inner: string) =>
    sys.api.post(`/clients/${device.identifier}/oneshots.json`, {
      ...token(),
      xml: `<oneshot><form_namespace>${xmlText(sys.template.namespace)}</form_namespace>${inner}</oneshot>`,
    });
  const deviceOneshot = async (res: ApiResponse) => (await sys.api.get(`/device/oneshots/${res.json().oneshot_list[0].id}`, { bearer: device.secret })).json().oneshot;
  const submission = async (res: ApiResponse, at: string) => {
    const query = `?submitted_after=${new Date(Date.parse(at) - 1).toISOString()}&submitted_before=${new Date(Date.parse(at) + 1).toISOString()}`;
    const page = (await sys.api.get(`/api/forms/${sys.template.id}/device_magic_database.json${query}`, token())).json();
    expect(page.submissions).toHaveLength(1);
    return page.submissions[0].submission.customer_name.value;
  };
  const nextSubmittedAt = () => new Date((submittedAt += 1000)).toISOString();
  const databaseListing: TextField['listings'] = [[null, `/api/forms/${'FORM'}/device_magic_database.json?per_page=1000`]];
  const resourceFile = { file_name: 'a.txt', content_type: 'text/plain', file_data: Buffer.from('hello').toString('base64') };

  const fields: TextField[] = [
    {
      name: 'group name (JSON create)',
      stored: trimmed,
      field: /\[0\]/,
      write: (text) => sys.api.post(org('/groups.json'), { ...token(), json: [text] }),
      readBack: async (res) => res.json().groups[0].name,
      listings: groupListings,
      cleanup: (res) => sys.api.delete(org(`/groups/${res.json().groups[0].id}`), token()),
    },
    {
      name: 'group name (XML create)',
      stored: trimmed,
      field: /groups\.group\.name/,
      write: (text) => sys.api.post(org('/groups.json'), { ...token(), xml: `<groups><group><name>${xmlText(text)}</name></group></groups>` }),
      readBack: async (res) => res.json().groups[0].name,
      listings: groupListings,
      cleanup: (res) => sys.api.delete(org(`/groups/${res.json().groups[0].id}`), token()),
    },
    {
      name: 'group name (JSON update)',
      stored: trimmed,
      field: /group\.name/,
      write: (text) => sys.api.put(org(`/groups/${renamableGroupId}.json`), { ...token(), json: { group: { name: text } } }),
      readBack: async (res) => res.json().group.name,
      listings: groupListings,
    },
    {
      name: 'group name (XML update)',
      stored: trimmed,
      field: /group\.name/,
      write: (text) => sys.api.put(org(`/groups/${renamableGroupId}.json`), { ...token(), xml: `<group><name>${xmlText(text)}</name></group>` }),
      readBack: async (res) => res.json().group.name,
      listings: groupListings,
    },
    {
      name: 'form title (JSON)',
      field: /title/,
      write: (text) => sys.api.post(org('/forms'), { ...token(), json: { ...inspectionForm, title: text } }),
      readBack: async (res) => res.json().name,
      listings: [[null, '/organizations/ORG/forms.json']],
      cleanup: (res) => sys.api.delete(org(`/forms/${res.json().id}`), token()),
    },
    {
      name: 'form question title (JSON)',
      field: /children\[0\]\.title/,
      write: (text) => sys.api.post(org('/forms'), { ...token(), json: { ...inspectionForm, title: `Q ${Date.now()}`, children: [{ ...inspectionForm.children[0], title: text }] } }),
      readBack: async (res) => (await sys.api.get(org(`/forms/${res.json().id}.json`), token())).json().children[0].title,
      listings: [[null, '/organizations/ORG/forms.json']],
      cleanup: (res) => sys.api.delete(org(`/forms/${res.json().id}`), token()),
    },
    ...(['form_name', 'form_description'] as const).flatMap((key): TextField[] => [
      {
        name: `oneshot ${key} (JSON create)`,
        field: new RegExp(key),
        write: (text) => oneshotJson({ [key]: text }),
        readBack: async (res) => (await deviceOneshot(res))[key === 'form_name' ? 'name' : 'description'],
        listings: oneshotListings,
        cleanup: revoke,
      },
      {
        name: `oneshot ${key} (XML create)`,
        field: new RegExp(`oneshot\\.${key}`),
        write: (text) => oneshotXml(`<${key}>${xmlText(text)}</${key}>`),
        readBack: async (res) => (await deviceOneshot(res))[key === 'form_name' ? 'name' : 'description'],
        listings: oneshotListings,
        cleanup: revoke,
      },
      {
        name: `oneshot ${key} (JSON update)`,
        field: new RegExp(key),
        write: (text) => sys.api.put(`/clients/${device.identifier}/oneshots/${outstandingId}.json`, { ...token(), json: { payload: {}, [key]: text } }),
        readBack: async (res) => res.json()[key === 'form_name' ? 'name' : 'description'],
        listings: oneshotListings,
      },
    ]),
    {
      name: 'oneshot payload value (JSON create)',
      field: /payload\.customer_name/,
      write: (text) => oneshotJson({ payload: { customer_name: text } }),
      readBack: async (res) => (await deviceOneshot(res)).payload.customer_name,
      listings: oneshotListings,
      cleanup: revoke,
    },
    {
      name: 'oneshot payload value (XML create)',
      field: /oneshot\.customer_name/,
      write: (text) => oneshotXml(`<customer_name>${xmlText(text)}</customer_name>`),
      readBack: async (res) => (await deviceOneshot(res)).payload.customer_name,
      listings: oneshotListings,
      cleanup: revoke,
    },
    ...(['owner', 'description'] as const).flatMap((key): TextField[] => [
      {
        name: `device ${key} (JSON update)`,
        field: new RegExp(`device\\.${key}`),
        write: (text) => sys.api.put(org(`/devices/${device.id}.json`), { ...token(), json: { device: { [key]: text } } }),
        readBack: async (res) => res.json().device[key],
        listings: deviceListings,
      },
      {
        name: `device ${key} (XML update)`,
        field: new RegExp(`device\\.${key}`),
        write: (text) => sys.api.put(org(`/devices/${device.id}.json`), { ...token(), xml: `<device><${key}>${xmlText(text)}</${key}></device>` }),
        readBack: async (res) => res.json().device[key],
        listings: deviceListings,
      },
    ]),
    {
      name: 'resource description (JSON create)',
      field: /resource\.description/,
      write: (text) => sys.api.post('/api/resources.json', { ...token(), json: { resource: { description: text, file: resourceFile } } }),
      readBack: async (res) => res.json().resource.description,
      listings: [[null, '/api/resources.json']],
      cleanup: (res) => sys.api.delete(`/api/resources/${res.json().resource.id}.json`, token()),
    },
    {
      name: 'resource description (form create)',
      field: /resource\.description/,
      // A form body is UTF-8 percent-encoded: a lone surrogate cannot travel in it.
      carried: wellFormed,
      write: (text) =>
        sys.api.post('/api/resources.json', {
          ...token(),
          contentType: 'application/x-www-form-urlencoded',
          body: `resource[description]=${encodeURIComponent(wellFormed(text))}&resource[file][file_name]=a.txt&resource[file][content_type]=text%2Fplain&resource[file][file_data]=${encodeURIComponent(resourceFile.file_data)}`,
        }),
      readBack: async (res) => res.json().resource.description,
      listings: [[null, '/api/resources.json']],
      cleanup: (res) => sys.api.delete(`/api/resources/${res.json().resource.id}.json`, token()),
    },
    {
      name: 'destination description (JSON create)',
      field: /destination\.description/,
      write: (text) =>
        sys.api.post(`/api/forms/${sys.template.id}/destinations.json`, {
          ...token(),
          json: {
            destination: { description: text, format_selection: 'json_format', transport_selection: 'http_transport' },
            json_format: {},
            http_transport: { uri: 'https://93.184.215.14/hooks/formcast' },
          },
        }),
      readBack: async (res) => res.json().destination.description,
      listings: destinationListings,
      cleanup: (res) => sys.api.delete(`/api/forms/${sys.template.id}/destinations/${res.json().destination.id}.json`, token()),
    },
    {
      name: 'remote connection name (XML create)',
      field: /http_connection\.name/,
      write: (text) =>
        sys.api.post(org(`/forms/${sys.template.id}/remote_connections.xml`), {
          ...token(),
          xml: `<remote_connections><http_connection><name>${xmlText(text)}</name><remote_url>https://93.184.215.14/hooks/formcast</remote_url></http_connection></remote_connections>`,
        }),
      readBack: async (res) => {
        const id = responseParser.parse(res.text).remote_connections.http_connection.id;
        return (await sys.api.get(`/api/forms/${sys.template.id}/destinations/${id}.json`, token())).json().destination.description;
      },
      listings: destinationListings,
      cleanup: (res) => sys.api.delete(`/api/forms/${sys.template.id}/destinations/${responseParser.parse(res.text).remote_connections.http_connection.id}.json`, token()),
    },
    {
      name: 'submission answer (JSON, device side)',
      field: /answers\.customer_name/,
      write: (text) => {
        const at = nextSubmittedAt();
        return sys.api.post(`/device/forms/${sys.template.id}/submissions`, { bearer: device.secret, json: { answers: { customer_name: text }, submitted_at: at } }).then((res) => Object.assign(res, { at }));
      },
      readBack: (res) => submission(res, (res as ApiResponse & { at: string }).at),
      listings: databaseListing,
    },
    {
      name: 'submission answer (XML instance, v3)',
      field: /instance\.customer_name/,
      write: (text) => {
        const at = `v3-${submittedAt++}`;
        const payload = `<instance xmlns="${xmlText(sys.template.namespace)}" submissionIdentifier="${at}"><customer_name>${xmlText(text)}</customer_name></instance>`;
        return sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, { ...token(), json: { payload } }).then((res) => Object.assign(res, { at }));
      },
      readBack: async (res) => {
        const identifier = (res as ApiResponse & { at: string }).at;
        const page = (await sys.api.get(`/api/forms/${sys.template.id}/device_magic_database.json?per_page=1000&device_id=${device.identifier}`, token())).json();
        const found = page.submissions.find((s: { metadata: { device_submission_identifier: { value: string } } }) => s.metadata.device_submission_identifier.value === identifier);
        return found?.submission.customer_name.value;
      },
      listings: databaseListing,
    },
  ];

  const resolve = (path: string) => path.replace('ORG', String(sys.org.orgId)).replace('DEVICE', device.identifier).replace('FORM', String(sys.template.id));

  async function expectListingsReadable(listings: TextField['listings']): Promise<void> {
    for (const [xml, json] of listings) {
      if (xml !== null) {
        const res = await sys.api.get(resolve(xml), token());
        expect({ xml, status: res.status }).toEqual({ xml, status: 200 });
        expect({ xml, valid: XMLValidator.validate(res.text) }).toEqual({ xml, valid: true });
      }
      if (json !== null) {
        const res = await sys.api.get(resolve(json), token());
        expect({ json, status: res.status }).toEqual({ json, status: 200 });
        expect({ json, storedUnwritable: holdsUnwritable(res.json()) }).toEqual({ json, storedUnwritable: false });
      }
    }
  }

  it.each(fields.map((field) => [field.name, field] as const))('%s', async (_name, field) => {
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        const res = await field.write(text);
        const sent = field.carried ? field.carried(text) : text;
        const outcome = { field: field.name, text: JSON.stringify(text), status: res.status, answer: res.text.slice(0, 300) };
        if (unwritable.test(sent)) {
          expect(outcome).toEqual({ ...outcome, status: 400, answer: expect.stringMatching(/XML cannot carry/) });
          expect(res.text).toMatch(field.field);
        } else if (res.status >= 200 && res.status < 300) {
          expect({ ...outcome, stored: await field.readBack(res) }).toEqual({ ...outcome, stored: field.stored ? field.stored(sent) : sent });
          await field.cleanup?.(res);
        } else {
          // Refused for another reason (blank, too long, a name that exists): a 4xx, never about the characters.
          const refusal = { otherRefusal: [304, 400, 409, 422].includes(res.status), aboutCharacters: /XML cannot carry/.test(res.text) };
          expect({ ...outcome, ...refusal }).toEqual({ ...outcome, otherRefusal: true, aboutCharacters: false });
        }
        await expectListingsReadable(field.listings);
      }),
      { numRuns: runsPerField },
    );
  }, 120_000);
});
