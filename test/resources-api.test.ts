import { readFileSync } from 'node:fs';
import { createOrganization, type TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import {
  docxDocument,
  jpegImage,
  mapOverlay,
  mime,
  pdfDocument,
  pngImage,
  realSpreadsheetPath,
  xlsxWorkbook,
} from './fixtures/resource-files';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function fileJson(fileName: string, bytes: Buffer, contentType: unknown) {
  return { file_name: fileName, file_data: bytes.toString('base64'), content_type: contentType };
}

describe.each(systemModes)('Resources API (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });
  const spreadsheet = readFileSync(realSpreadsheetPath);

  const create = (o: TestOrganization, description: string, file: unknown) =>
    sys.api.post('/api/resources.json', { token: o.token, json: { resource: { description, file } } });
  const describeResource = (o: TestOrganization, id: number) => sys.api.get(`/api/resources/${id}/describe.json`, { token: o.token });
  const list = async (o: TestOrganization) => (await sys.api.get('/api/resources.json', { token: o.token })).json().resources;

  it('lists nothing for a new organization', async () => {
    const fresh = await createOrganization(sys.api, sys.adminToken);
    const res = await sys.api.get('/api/resources.json', { token: fresh.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.json()).toEqual({ resources: [] });
  });

  it('creates a spreadsheet resource (201) and describes test_resource.xlsx as the real product did', async () => {
    const created = await create(sys.org, 'Options list', fileJson('test_resource.xlsx', spreadsheet, mime.xlsx));
    expect(created.status).toBe(201);
    const { resource } = created.json();
    expect(Object.keys(resource)).toEqual(['id', 'identifier', 'original_filename', 'version', 'description', 'generated_content_summary']);
    expect(resource).toEqual({
      id: expect.any(Number),
      identifier: expect.stringMatching(uuid),
      original_filename: 'test_resource.xlsx',
      version: 0,
      description: 'Options list',
      generated_content_summary: [
        {
          table_name: 'test_resource.Sheet1',
          original_sheet_name: 'Sheet1',
          table_id: expect.stringMatching(uuid),
          columns: [{ column_name: 'test_options', column_number: 1, column_id: expect.stringMatching(uuid) }],
        },
      ],
    });

    // The same ids on every describe until the file changes.
    const first = await describeResource(sys.org, resource.id);
    const second = await sys.api.get(`/api/resources/${resource.id}/describe`, { token: sys.org.token });
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ resource });
    expect(second.json()).toEqual({ resource });

    const listed = await list(sys.org);
    expect(listed).toContainEqual({ id: resource.id, original_filename: 'test_resource.xlsx', version: 0, description: 'Options list' });
    expect(Object.keys(listed.find((r: { id: number }) => r.id === resource.id))).toEqual(['id', 'original_filename', 'version', 'description']);
  });

  it('downloads the exact bytes with their type and the file name', async () => {
    const { resource } = (await create(sys.org, 'xlsx', fileJson('test_resource.xlsx', spreadsheet, mime.xlsx))).json();
    const res = await fetch(`${sys.api.baseUrl}/api/resources/${resource.id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(mime.xlsx);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="test_resource.xlsx"; filename*=UTF-8''test_resource.xlsx`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(spreadsheet)).toBe(true);
  });

  it.each([
    ['a PNG', 'map.png', () => pngImage(), mime.png, mime.png],
    ['a JPEG', 'photo.jpg', () => jpegImage(), mime.jpeg, mime.jpeg],
    ['a PDF', 'manual.pdf', () => pdfDocument(), mime.pdf, mime.pdf],
    ['a .docx', 'notes.docx', () => docxDocument(), mime.docx, mime.docx],
    ['XML', 'sites.xml', () => Buffer.from('<sites><site>North</site></sites>'), mime.xml, mime.xml],
    ['text/xml', 'route.kml', () => Buffer.from('<kml><Document/></kml>'), mime.textXml, 'text/xml; charset=utf-8'],
    ['UTF-8 text', 'läsmig.txt', () => Buffer.from('Grüße ✓\n'), mime.text, 'text/plain; charset=utf-8'],
    ['JSON', 'options.json', () => Buffer.from('{"options":["a","b"]}'), mime.json, mime.json],
    ['a map overlay as JSON', 'overlay.json', () => mapOverlay(), mime.json, mime.json],
    ['a map overlay of its own type', 'overlay.json', () => mapOverlay(), mime.mapOverlay, mime.mapOverlay],
    ['a type given as ["<mime>", null]', 'notes.txt', () => Buffer.from('guessed'), [mime.text, null], 'text/plain; charset=utf-8'],
    ['a type in capitals with a parameter', 'notes.txt', () => Buffer.from('x'), 'Text/Plain; charset=UTF-8', 'text/plain; charset=utf-8'],
  ])('stores %s and gives it back unchanged', async (_name, fileName, bytes, contentType, servedType) => {
    const created = await create(sys.org, _name, fileJson(fileName, bytes(), contentType));
    expect(created.status).toBe(201);
    const { resource } = created.json();
    expect(resource).toMatchObject({ original_filename: fileName, version: 0, description: _name, generated_content_summary: [] });
    const download = await fetch(`${sys.api.baseUrl}/api/resources/${resource.id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(servedType);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes())).toBe(true);
  });

  it('carries a 3 MB file through the bus and back intact', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024, 'Field readings, site 7: 12.5 m; ');
    const created = await create(sys.org, 'large', fileJson('large.txt', bytes, mime.text));
    expect(created.status).toBe(201);
    const download = await fetch(`${sys.api.baseUrl}/api/resources/${created.json().resource.id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` },
    });
    expect(download.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('takes Base64 broken into lines, as MIME encoders write it', async () => {
    const bytes = Buffer.from('x'.repeat(300));
    const lines = bytes.toString('base64').replace(/(.{76})/g, '$1\r\n');
    const created = await create(sys.org, 'wrapped', { file_name: 'w.txt', file_data: lines, content_type: mime.text });
    expect(created.status).toBe(201);
    const download = await sys.api.get(`/api/resources/${created.json().resource.id}`, { token: sys.org.token });
    expect(download.text).toBe('x'.repeat(300));
  });

  it('takes a form-encoded body, as the PHP client posts it, with + encoded or not', async () => {
    const bytes = Buffer.from([0xfb, 0xef, 0xbe, 0xff, 0xff, 0xff, 0x3e, 0x3f]); // Base64 with + and /
    const base64 = bytes.toString('base64');
    expect(base64).toMatch(/\+/);
    const form = (data: string) =>
      `resource[description]=${encodeURIComponent('From PHP')}` +
      `&resource[file][file_name]=${encodeURIComponent('blob.txt')}` +
      `&resource[file][content_type]=${encodeURIComponent(mime.text)}` +
      `&resource[file][file_data]=${data}`;
    const text = Buffer.from('Hello from a form ✓');

    const encoded = await sys.api.post('/api/resources.json', {
      token: sys.org.token,
      body: form(encodeURIComponent(text.toString('base64'))),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(encoded.status).toBe(201);
    expect(encoded.json().resource).toMatchObject({ original_filename: 'blob.txt', description: 'From PHP', version: 0 });
    expect((await sys.api.get(`/api/resources/${encoded.json().resource.id}`, { token: sys.org.token })).text).toBe(text.toString());

    // A raw + arrives as a space once form-decoded; it is read back as +.
    const pdfBytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), bytes, Buffer.from('\n%%EOF\n')]);
    const raw = await sys.api.post('/api/resources', {
      token: sys.org.token,
      body: form(pdfBytes.toString('base64')).replace(encodeURIComponent(mime.text), encodeURIComponent(mime.pdf)),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(pdfBytes.toString('base64')).toMatch(/\+/);
    expect(raw.status).toBe(201);
    const download = await fetch(`${sys.api.baseUrl}/api/resources/${raw.json().resource.id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(pdfBytes)).toBe(true);
  });

  it('updates only what is given: a description leaves version and ids, a new file bumps the version', async () => {
    const { resource: created } = (await create(sys.org, 'Prices', fileJson('test_resource.xlsx', spreadsheet, mime.xlsx))).json();

    const described = await sys.api.put(`/api/resources/${created.id}.json`, { token: sys.org.token, json: { resource: { description: 'Prices 2024' } } });
    expect(described.status).toBe(200);
    expect(described.json()).toEqual({ resource: { ...created, description: 'Prices 2024' } });

    // Without the suffix, as real clients send it; a new file regenerates the summary.
    const workbook = await xlsxWorkbook([
      { name: 'Prices', rows: [['sku', 'price'], ['A-1', 9.5]] },
      { name: 'Notes', rows: [['note']] },
    ]);
    const replaced = await sys.api.put(`/api/resources/${created.id}`, {
      token: sys.org.token,
      json: { resource: { file: fileJson('prices.xlsx', workbook, mime.xlsx) } },
    });
    expect(replaced.status).toBe(200);
    const { resource: v1 } = replaced.json();
    expect(v1).toMatchObject({ id: created.id, version: 1, original_filename: 'prices.xlsx', description: 'Prices 2024' });
    expect(v1.identifier).toMatch(uuid);
    expect(v1.identifier).not.toBe(created.identifier);
    expect(v1.generated_content_summary.map((t: { table_name: string }) => t.table_name)).toEqual(['prices.Prices', 'prices.Notes']);
    expect(v1.generated_content_summary[0].columns.map((c: { column_name: string; column_number: number }) => [c.column_name, c.column_number])).toEqual([
      ['sku', 1],
      ['price', 2],
    ]);
    expect((await describeResource(sys.org, created.id)).json()).toEqual({ resource: v1 });

    const download = await fetch(`${sys.api.baseUrl}/api/resources/${created.id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(workbook)).toBe(true);

    // Another file, form-encoded this time: version 2, and the summary is [] for text.
    const v2 = await sys.api.put(`/api/resources/${created.id}.json`, {
      token: sys.org.token,
      body: `resource[file][file_name]=p.txt&resource[file][content_type]=text%2Fplain&resource[file][file_data]=${encodeURIComponent(Buffer.from('plain').toString('base64'))}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(v2.status).toBe(200);
    expect(v2.json().resource).toMatchObject({ version: 2, original_filename: 'p.txt', description: 'Prices 2024', generated_content_summary: [] });
    expect(await list(sys.org)).toContainEqual({ id: created.id, original_filename: 'p.txt', version: 2, description: 'Prices 2024' });
  });

  it('deletes a resource (200); afterwards, and for unknown ids, 404', async () => {
    const { resource } = (await create(sys.org, 'temporary', fileJson('t.txt', Buffer.from('t'), mime.text))).json();
    const deleted = await sys.api.delete(`/api/resources/${resource.id}`, { token: sys.org.token });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expect((await describeResource(sys.org, resource.id)).status).toBe(404);
    expect((await sys.api.get(`/api/resources/${resource.id}`, { token: sys.org.token })).status).toBe(404);
    expect((await list(sys.org)).map((r: { id: number }) => r.id)).not.toContain(resource.id);

    const again = await sys.api.delete(`/api/resources/${resource.id}.json`, { token: sys.org.token });
    expect(again.status).toBe(404);
    expect(again.json()).toMatchObject({ status: '404', error: 'Not Found', message: `Resource ${resource.id} does not exist` });
    expect((await sys.api.delete('/api/resources/987654', { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get('/api/resources/not-a-number', { token: sys.org.token })).status).toBe(404);
    // .xml is the documented XML list (v1/resource.md); any other suffix is 404.
    expect((await sys.api.get('/api/resources.foo', { token: sys.org.token })).status).toBe(404);
  });

  it('answers 404 for another organization\'s resources, changing nothing', async () => {
    const { resource } = (await create(sys.orgs[1], 'Theirs', fileJson('theirs.txt', Buffer.from('private'), mime.text))).json();
    const path = `/api/resources/${resource.id}`;
    expect((await sys.api.get(path, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(`${path}/describe.json`, { token: sys.org.token })).status).toBe(404);
    const put = await sys.api.put(`${path}.json`, { token: sys.org.token, json: { resource: { description: 'Mine now' } } });
    expect(put.status).toBe(404);
    expect((await sys.api.delete(path, { token: sys.org.token })).status).toBe(404);
    expect((await list(sys.org)).map((r: { id: number }) => r.id)).not.toContain(resource.id);
    expect((await describeResource(sys.orgs[1], resource.id)).json()).toEqual({ resource });
  });

  it('requires the API token (401 with a Basic challenge)', async () => {
    for (const res of [await sys.api.get('/api/resources.json'), await sys.api.post('/api/resources.json', { json: {} }), await sys.api.get('/api/resources.json', { token: 'wrong-token' })]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Formcast API"');
    }
  });

  it('keeps any file name as given, and never lets it break the Content-Disposition header', async () => {
    const name = 'Überblick "2024"\r\nSet-Cookie: stolen=1; ../../etc/passwd.txt';
    const created = await create(sys.org, 'odd name', fileJson(name, Buffer.from('x'), mime.text));
    expect(created.status).toBe(201);
    expect(created.json().resource.original_filename).toBe(name);
    const res = await sys.api.get(`/api/resources/${created.json().resource.id}`, { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="_berblick _2024___Set-Cookie: stolen=1; .._.._etc_passwd.txt"; ' +
        "filename*=UTF-8''%C3%9Cberblick%20%222024%22%0D%0ASet-Cookie%3A%20stolen%3D1%3B%20.._.._etc_passwd.txt",
    );
  });
});
