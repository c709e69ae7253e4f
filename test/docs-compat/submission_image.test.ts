import { randomUUID } from 'node:crypto';
import { systemModes } from '../support/start-system';
import { describeSubmissionImageDocExamples, md5Of, taggedJpeg, useImageSuite } from './support/submission-image-examples-c';

// doc/api/submission_image.md (devicemagic/forms_api_docs, both stored versions): the same
// routes as v3/submission_image.md, every example sent, every answer held.
describeSubmissionImageDocExamples('doc/api/submission_image.md');

// README.md of the docs indexes this file's upload as `POST /api/v3/devices/:device_identifier/submissions_image`.
describe.each(systemModes)('README.md: the submission image upload as its index names it (%s)', (mode) => {
  const suite = useImageSuite(mode);

  it('POST /api/v3/devices/:device_identifier/submissions_image: 202, empty body, the image saved', async () => {
    const image = `img-${randomUUID()}`;
    const bytes = taggedJpeg(image);
    const res = await suite.upload(bytes, { image }, { path: 'submissions_image' });
    expect([res.status, res.text]).toEqual([202, '']);
    expect((await suite.md5(image)).text).toBe(md5Of(bytes));
  });
});
