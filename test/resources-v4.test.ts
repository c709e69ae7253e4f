import { waitFor } from '@formcast/testing';
import type { TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { jpegImage, mapOverlay, mime, pngImage } from './fixtures/resource-files';

const jobId = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const v4File = (fileName: string, bytes: Buffer, mimeType: unknown) => ({ file_name: fileName, file_data: bytes.toString('base64'), mime_type: mimeType });

/**
 * Resources v4 (resource_v4.md): create and update queued (202 with the job), done by the
 * resources service in the background, polled at /api/v4/async_resource_updates/<id>. And the
 * first generation's XML listing (v1/resource.md) and `.json` download (pydevice).
 */
describe.each(systemModes)('Resources v4 and the first generation\'s documented paths (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });

  const create = (body: object, o: TestOrganization = sys.org) => sys.api.post('/api/v4/resources.json', { token: o.token, json: { resource: body } });
  const update = (id: number, body: object, o: TestOrganization = sys.org) => sys.api.put(`/api/v4/resources/${id}.json`, { token: o.token, json: { resource: body } });
  const poll = (id: string, o: TestOrganization = sys.org) => sys.api.get(`/api/v4/async_resource_updates/${id}`, { token: o.token });
  const listed = async (o: TestOrganization = sys.org) => (await sys.api.get('/api/resources.json', { token: o.token })).json().resources;

  /** Polls until the job ends, as a client does. */
  async function finished(id: string, o: TestOrganization = sys.org): Promise<any> {
    let last: any;
    await waitFor(
      async () => {
        last = (await poll(id, o)).json();
        return last.status === 'completed' || last.status === 'failed';
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    return last;
  }

  it('queues a create (202 with the job), does it, and shows the resource once completed; the bytes download on v1, with .json too', async () => {
    const text = `Grüße ✓ ${mode}\n`;
    const res = await create({ description: 'r3', file: v4File('R2_D3.txt', Buffer.from(text), mime.text) });
    expect(res.status).toBe(202);
    const job = res.json();
    expect(job).toEqual({
      async_resource_update_id: expect.stringMatching(jobId),
      status: 'queued',
      resource_version_when_queued: null,
      poll_url: `/api/v4/async_resource_updates/${job.async_resource_update_id}`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const done = await finished(job.async_resource_update_id);
    expect(done).toEqual({
      async_resource_update_id: job.async_resource_update_id,
      status: 'completed',
      resource_version_when_queued: null,
      resource_version_when_completed: 0,
      resource: { id: expect.any(Number), identifier: expect.any(String), original_filename: 'R2_D3.txt', version: 0, description: 'r3' },
      created_at: job.created_at,
      updated_at: expect.any(String),
    });
    const { id } = done.resource;
    for (const path of [`/api/resources/${id}`, `/api/resources/${id}.json`]) {
      const download = await sys.api.get(path, { token: sys.org.token });
      expect([download.status, download.headers.get('content-type'), download.text]).toEqual([200, 'text/plain; charset=utf-8', text]);
    }
  });

  it('queues an update at the resource\'s version and completes at the next; a description alone keeps the version', async () => {
    const first = await finished((await create({ description: 'before', file: v4File('a.png', pngImage(), mime.png) })).json().async_resource_update_id);
    const id = first.resource.id;

    const queued = await update(id, { description: 'after', file: v4File('b.jpg', jpegImage(), mime.jpeg) });
    expect(queued.status).toBe(202);
    expect(queued.json()).toMatchObject({ status: 'queued', resource_version_when_queued: 0 });
    const done = await finished(queued.json().async_resource_update_id);
    expect(done).toMatchObject({ status: 'completed', resource_version_when_queued: 0, resource_version_when_completed: 1, resource: { id, version: 1, description: 'after', original_filename: 'b.jpg' } });

    const described = await finished((await update(id, { description: 'only text' })).json().async_resource_update_id);
    expect(described).toMatchObject({ resource_version_when_queued: 1, resource_version_when_completed: 1, resource: { version: 1, description: 'only text' } });
  });

  it('fails the job, saying why, when the file is not what its MIME type says; nothing is stored', async () => {
    const before = await listed();
    const res = await create({ description: 'bad', file: v4File('fake.png', Buffer.from('not an image'), mime.png) });
    expect(res.status).toBe(202);
    const done = await finished(res.json().async_resource_update_id);
    expect(done).toEqual({
      async_resource_update_id: res.json().async_resource_update_id,
      status: 'failed',
      resource_version_when_queued: null,
      error: expect.stringMatching(/file/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await listed()).toEqual(before);
  });

  it('refuses at once what cannot be queued (400, 404, 413, 415), queuing nothing', async () => {
    const [mine, theirs] = sys.orgs;
    const theirResource = (await finished((await create({ description: 't', file: v4File('t.png', pngImage(), mime.png) }, theirs)).json().async_resource_update_id, theirs)).resource.id;
    const before = await listed();
    const refusals: Array<[Promise<{ status: number; text: string }>, number, RegExp]> = [
      [create({ description: 'map', file: v4File('m.json', mapOverlay(), mime.mapOverlay) }), 415, /file\.mime_type: .* is not taken by v4/],
      [create({ description: 'no type', file: { file_name: 'x.png', file_data: pngImage().toString('base64'), content_type: mime.png } }), 400, /file\.mime_type: required/],
      [create({ file: v4File('x.png', pngImage(), mime.png) }), 400, /description: required/],
      [create({ description: 'no file' }), 400, /file: required/],
      [create({ description: 'bad', file: { file_name: 'x.png', file_data: '%%%', mime_type: mime.png } }), 400, /Base64/],
      [update(999999, { description: 'x' }), 404, /999999/],
      [update(theirResource, { description: 'x' }, mine), 404, /does not exist/],
      [update(theirResource, {}, theirs), 400, /give the description, the file, or both/],
    ];
    for (const [pending, status, message] of refusals) {
      const res = await pending;
      expect([res.status, res.text]).toEqual([status, expect.stringMatching(message)]);
    }
    expect(await listed()).toEqual(before);
  });

  it("answers 404 for another organization's job, an unknown one and a malformed id", async () => {
    const [mine, theirs] = sys.orgs;
    const job = (await create({ description: 'theirs', file: v4File('t.png', pngImage(), mime.png) }, theirs)).json().async_resource_update_id;
    expect((await poll(job, mine)).status).toBe(404);
    expect((await poll(job, theirs)).status).toBe(200);
    expect((await poll('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await poll('not-a-uuid')).status).toBe(404);
    expect((await sys.api.get(`/api/v4/async_resource_updates/${job}`)).status).toBe(401);
  });

  it('lists resources as XML on /api/resources.xml (v1/resource.md), the same records as the JSON list', async () => {
    const res = await sys.api.get('/api/resources.xml', { token: sys.org.token });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^application\/xml/)]);
    const json = await listed();
    expect(res.text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<resources type="array">/);
    expect(res.text.match(/<resource>/g)?.length ?? 0).toBe(json.length);
    for (const resource of json) expect(res.text).toContain(`<id type="integer">${resource.id}</id>`);
    expect((await sys.api.get('/api/resources.foo', { token: sys.org.token })).status).toBe(404);
  });
});
