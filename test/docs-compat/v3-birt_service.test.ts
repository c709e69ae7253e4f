import { randomUUID } from 'node:crypto';
import { systemModes } from '../support/start-system';
import { taggedJpeg, useImageSuite, uuidOf } from './support/submission-image-examples-c';

/**
 * doc/api/v3/birt_service.md (devicemagic/forms_api_docs, every stored version): its one
 * endpoint, `GET /api/v3/download_submission_image?uuid=…`, answers "the binary data of the
 * image". The uuid is the one the image's upload names in its Location. (The example's own
 * URL, `https://api.devicemagic.com/submission_image:uuid`, names no path of the table above
 * it: the documented path is the one sent.)
 */
describe.each(systemModes)('doc/api/v3/birt_service.md: the documented examples (%s)', (mode) => {
  const suite = useImageSuite(mode);
  const { sys } = suite;

  it('GET /api/v3/download_submission_image?uuid=…: 200, the binary data of the image', async () => {
    const bytes = taggedJpeg(`birt-${mode}`);
    const upload = await suite.upload(bytes, { image: `img-${randomUUID()}` });
    expect(upload.status).toBe(202);
    const res = await suite.download(uuidOf(upload.headers.get('location')));
    expect([res.status, res.type]).toEqual([200, 'image/jpeg']);
    expect(res.bytes.equals(bytes)).toBe(true);
  });

  it("an unknown uuid, or another organization's image: 404; no uuid, or one that is no uuid: 400", async () => {
    const upload = await suite.upload(taggedJpeg('birt-other'), { image: `img-${randomUUID()}` });
    const uuid = uuidOf(upload.headers.get('location'));
    expect((await suite.download(randomUUID())).status).toBe(404);
    expect((await suite.download(uuid, sys.orgs[1].token)).status).toBe(404);
    expect((await suite.download('1234')).status).toBe(400);
    expect((await sys.api.get('/api/v3/download_submission_image', { token: sys.org.token })).status).toBe(400);
  });
});
