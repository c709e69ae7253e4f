import { createHash, randomUUID } from 'node:crypto';
import { waitFor } from '@formcast/testing';
import { jpegImage } from '../../fixtures/resource-files';
import { enrollDevice, type TestDevice } from '../../support/fixtures';
import { createTemplate } from '../../support/push-fixtures';
import { answers, WebhookReceiver } from '../../support/webhook-receiver';
import { systemModes } from '../../support/start-system';
import { useSystem, type SystemUnderTest } from '../../support/use-system';

/** The largest image of these suites (SUBMISSION_IMAGE_MAX_BYTES), small so that 413 costs little. */
export const imageLimitBytes = 64 * 1024;

/** A JPEG of its own: the fixture's, with `tag` in a comment segment, so two differ in bytes and MD5. */
export function taggedJpeg(tag: string): Buffer {
  const base = jpegImage();
  const text = Buffer.from(tag, 'utf8');
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]), text]);
  return Buffer.concat([base.subarray(0, 2), comment, base.subarray(2)]);
}

export const md5Of = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** The docs' curl sends the bytes with `-d`: curl's type for that is a form's. */
const curlDataType = 'application/x-www-form-urlencoded';

/** What one suite reaches: the system, a device of the first organization, and the requests of the docs. */
export interface ImageSuite {
  sys: SystemUnderTest<any, 2>;
  device: () => TestDevice;
  upload: (bytes: Buffer, query: { image: string; submission?: string }, options?: { token?: string; device?: string; headers?: Record<string, string>; path?: string }) => ReturnType<SystemUnderTest['api']['post']>;
  md5: (image: string, options?: { token?: string; device?: string }) => ReturnType<SystemUnderTest['api']['get']>;
  download: (uuid: string, token?: string) => Promise<{ status: number; type: string | null; bytes: Buffer }>;
}

/** Starts the system of a doc's suite in `mode` (images limited to imageLimitBytes) with two organizations. */
export function useImageSuite(mode: (typeof systemModes)[number]): ImageSuite {
  const sys = useSystem(mode, { organizations: 2, env: { SUBMISSION_IMAGE_MAX_BYTES: String(imageLimitBytes), DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let device: TestDevice;
  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org, { owner: 'Field Tech' });
  });
  return {
    sys,
    device: () => device,
    upload: (bytes, query, options = {}) =>
      sys.api.post(
        `/api/v3/devices/${encodeURIComponent(options.device ?? device.identifier)}/${options.path ?? 'submission_images.json'}?image_identifier=${encodeURIComponent(query.image)}&submission_identifer=${encodeURIComponent(query.submission ?? randomUUID())}`,
        { token: options.token ?? sys.org.token, body: bytes, headers: { 'content-type': curlDataType, ...options.headers } },
      ),
    md5: (image, options = {}) =>
      sys.api.get(`/api/v3/devices/${encodeURIComponent(options.device ?? device.identifier)}/submission_images/${encodeURIComponent(image)}/get_md5`, {
        token: options.token ?? sys.org.token,
      }),
    download: async (uuid, token = sys.org.token) => {
      const res = await fetch(`${sys.api.baseUrl}/api/v3/download_submission_image?uuid=${encodeURIComponent(uuid)}`, {
        headers: { authorization: `Basic ${Buffer.from(`${token}:x`).toString('base64')}` },
      });
      return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

/** The uuid a 202 names in its Location (`/api/v3/download_submission_image?uuid=…`). */
export function uuidOf(location: string | null): string {
  const uuid = /[?&]uuid=([0-9a-f-]{36})$/.exec(location ?? '')?.[1];
  if (!uuid) throw new Error(`no image uuid in Location ${location}`);
  return uuid;
}

/**
 * doc/api/submission_image.md and doc/api/v3/submission_image.md, every stored version:
 * each example request sent as the docs write it, each documented answer held (202 and an
 * empty body; the MD5 of the image), and the refusals with nothing behind them.
 */
export function describeSubmissionImageDocExamples(doc: string): void {
  describe.each(systemModes)(`${doc}: the documented examples (%s)`, (mode) => {
    const suite = useImageSuite(mode);
    const { sys } = suite;

    it('POST …/submission_images.json?image_identifier=…&submission_identifer=… with the bytes (curl -d): 202, empty body; get_md5 answers its MD5', async () => {
      const image = `img-${randomUUID()}`;
      const bytes = taggedJpeg(image);
      const res = await suite.upload(bytes, { image, submission: '5678' });
      expect([res.status, res.text]).toEqual([202, '']);
      const md5 = await suite.md5(image);
      expect([md5.status, md5.text]).toEqual([200, md5Of(bytes)]);
      expect(md5.headers.get('content-type')).toMatch(/^text\/plain/);
      const downloaded = await suite.download(uuidOf(res.headers.get('location')));
      expect(downloaded.status).toBe(200);
      expect(downloaded.type).toBe('image/jpeg');
      expect(downloaded.bytes.equals(bytes)).toBe(true);
    });

    it("the get_md5 example as the docs write it (a POST with the image's bytes): 202, empty, when they are the stored image's; 400 when not", async () => {
      const image = `img-${randomUUID()}`;
      const bytes = taggedJpeg(image);
      expect((await suite.upload(bytes, { image })).status).toBe(202);
      const path = `/api/v3/devices/${suite.device().identifier}/submission_images/${image}/get_md5`;
      const same = await sys.api.post(path, { token: sys.org.token, body: bytes, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect([same.status, same.text]).toEqual([202, '']);
      const other = await sys.api.post(path, { token: sys.org.token, body: taggedJpeg('other'), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(other.status).toBe(400);
      expect((await suite.md5(image)).text).toBe(md5Of(bytes));
    });

    it('the same image identifier again replaces the bytes (a device sends it again when the MD5 differed); its uuid stays', async () => {
      const image = `img-${randomUUID()}`;
      const first = await suite.upload(taggedJpeg('first'), { image });
      const second = await suite.upload(taggedJpeg('second'), { image });
      expect([first.status, second.status]).toEqual([202, 202]);
      expect(uuidOf(second.headers.get('location'))).toBe(uuidOf(first.headers.get('location')));
      expect((await suite.md5(image)).text).toBe(md5Of(taggedJpeg('second')));
      expect((await suite.download(uuidOf(first.headers.get('location')))).bytes.equals(taggedJpeg('second'))).toBe(true);
    });

    it('the submission that names the image (its identifier as the answer, as the docs say) waits for it: delivered once the image is stored', async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const form = await createTemplate(sys.api, sys.org, {
          type: 'root',
          title: `Photo survey ${randomUUID()}`,
          children: [
            { identifier: 'site', title: 'Site', type: 'text' },
            { identifier: 'photo', title: 'Photo', type: 'image' },
          ],
        });
        const hookPath = `/images/${randomUUID()}`;
        const destination = await sys.api.post(`/api/forms/${form.id}/destinations.json`, {
          token: sys.org.token,
          json: { destination: { description: 'hook', format_selection: 'json_format', transport_selection: 'http_transport' }, json_format: {}, http_transport: { uri: receiver.script(hookPath, answers.ok()), headers: {} } },
        });
        expect(destination.status).toBe(201);
        const submit = (identifier: string, site: string, photo: string) =>
          sys.api.post(`/api/v3/devices/${suite.device().identifier}/submissions.json`, {
            token: sys.org.token,
            json: { payload: `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${form.namespace}' submissionIdentifier='${identifier}'><site>${site}</site><photo>${photo}</photo></instance>` },
          });
        const image = `1234-${randomUUID()}`;
        const submission = `5678-${randomUUID()}`;
        expect((await submit(submission, 'waits', image)).status).toBe(202);
        // Submitted after it, with its image inline: delivered without waiting.
        expect((await submit(randomUUID(), 'inline', jpegImage().toString('base64'))).status).toBe(202);
        await waitFor(() => (receiver.received(hookPath).length >= 1 ? true : undefined), { description: 'the inline submission', timeoutMs: 20_000 });
        expect(receiver.received(hookPath).map((request) => request.body.includes('inline'))).toEqual([true]);
        expect((await suite.upload(taggedJpeg(image), { image, submission })).status).toBe(202);
        await waitFor(() => (receiver.received(hookPath).length >= 2 ? true : undefined), { description: 'the submission that waited', timeoutMs: 20_000 });
        expect(receiver.received(hookPath).map((request) => request.body.includes('waits'))).toEqual([false, true]);
      } finally {
        await receiver.close();
      }
    });

    it('the user paths are 404 (Formcast has no web users)', async () => {
      const upload = await sys.api.post('/api/v3/users/1/submission_images.json?image_identifier=1234&submission_identifer=5678', {
        token: sys.org.token,
        body: taggedJpeg('user'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(upload.status).toBe(404);
      expect((await sys.api.get('/api/v3/users/1/submission_images/1234/get_md5', { token: sys.org.token })).status).toBe(404);
    });

    describe('refusals, with nothing saved behind them', () => {
      const refused = async (res: { status: number }, status: number, image: string) => {
        expect(res.status).toBe(status);
        expect((await suite.md5(image)).status).toBe(404);
      };

      it('an unknown device, or one of another organization: 404', async () => {
        const image = `img-${randomUUID()}`;
        await refused(await suite.upload(taggedJpeg(image), { image }, { device: 'Android_nobody' }), 404, image);
        await refused(await suite.upload(taggedJpeg(image), { image }, { token: sys.orgs[1].token }), 404, image);
        expect((await suite.md5(image, { token: sys.orgs[1].token })).status).toBe(404);
      });

      it('a Content-MD5 the bytes do not have: 400 (and a malformed one)', async () => {
        const image = `img-${randomUUID()}`;
        const bytes = taggedJpeg(image);
        const wrong = createHash('md5').update('not these bytes').digest('base64');
        await refused(await suite.upload(bytes, { image }, { headers: { 'content-md5': wrong } }), 400, image);
        await refused(await suite.upload(bytes, { image }, { headers: { 'content-md5': 'abc' } }), 400, image);
        const right = await suite.upload(bytes, { image }, { headers: { 'content-md5': createHash('md5').update(bytes).digest('base64') } });
        expect(right.status).toBe(202);
      });

      it('an image over SUBMISSION_IMAGE_MAX_BYTES: 413; a body that is no image: 415; no body or no image_identifier: 400', async () => {
        const image = `img-${randomUUID()}`;
        const big = Buffer.concat([taggedJpeg(image), Buffer.alloc(imageLimitBytes)]);
        await refused(await suite.upload(big, { image }), 413, image);
        await refused(await suite.upload(Buffer.from('GIF89a not a jpeg'), { image }), 415, image);
        await refused(await suite.upload(Buffer.alloc(0), { image }), 400, image);
        const noIdentifier = await sys.api.post(`/api/v3/devices/${suite.device().identifier}/submission_images.json?submission_identifer=1`, {
          token: sys.org.token,
          body: taggedJpeg(image),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(noIdentifier.status).toBe(400);
      });

      it('an unknown device with a body over the limit: 404 first (the path before the body)', async () => {
        const big = Buffer.alloc(imageLimitBytes + 1);
        expect((await suite.upload(big, { image: '1' }, { device: 'Android_nobody' })).status).toBe(404);
      });

      it('get_md5 of an image never uploaded: 404', async () => {
        expect((await suite.md5(`img-${randomUUID()}`)).status).toBe(404);
      });
    });
  });
}
