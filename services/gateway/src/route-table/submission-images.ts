import { checkSubmissionImageMd5, downloadSubmissionImage, submissionImageMd5, uploadSubmissionImage } from '../routes/submission-images';
import type { HostileCase } from './declaration';
import { declareArea, type RouteSpec } from './declare';
import { read, write } from './route-kinds';

const identifierSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\s/\\\\]+$' };

/** The device's upload of an image: its bytes as the body, whatever its Content-Type, read up to SUBMISSION_IMAGE_MAX_BYTES. */
const upload = (path: string, summary: string, cases: HostileCase[]): RouteSpec =>
  write(
    'post',
    path,
    cases,
    ({ send }) => uploadSubmissionImage(send),
    {
      summary,
      description:
        "The body is the image's bytes (JPEG or PNG, at most SUBMISSION_IMAGE_MAX_BYTES), whatever its Content-Type: the docs' curl sends them with `-d`. The same `image_identifier` again on the same device replaces the bytes, keeping the image's uuid. With `Content-MD5` (RFC 1864 Base64, or 32 hexadecimal digits) or `md5`, a body whose MD5 differs is 400 and nothing is saved.",
      query: {
        image_identifier: { schema: identifierSchema, description: 'The image\'s identifier, as the submission named it (required)' },
        submission_identifer: { schema: identifierSchema, description: 'The submission\'s identifier (`submissionIdentifier`), spelt as the docs spell it; `submission_identifier` is taken too (required)' },
        md5: { schema: { type: 'string', pattern: '^[0-9a-fA-F]{32}$' }, description: 'The MD5 of the body, where no Content-MD5 header gives it' },
      },
      body: { other: { '*/*': "The image's bytes" } },
      answers: { 202: { description: 'Saved (empty body)', headers: { Location: 'Where the image is read back: `/api/v3/download_submission_image?uuid=<uuid>`' } } },
      errors: [400, 404, 413, 415],
    },
    { suffixes: '.json', body: 'SUBMISSION_IMAGE_MAX_BYTES' },
  );

/**
 * Submission images (v3/submission_image.md, submission_image.md; birt_service.md's
 * download). The device's paths take the image's bytes as the body, whatever its
 * Content-Type, read up to SUBMISSION_IMAGE_MAX_BYTES after authentication (create-app.ts
 * mounts them before the global parser). Another organization's device or image is 404.
 */
export const submissionImages = declareArea({
  name: 'submission-images',
  mount: '',
  tag: 'Submission images',
  suffixes: 'none',
  routes: [
    upload('/api/v3/devices/:deviceRef/submission_images', "Upload an image of a device's submission", [
      { suffix: '.json', query: 'image_identifier=battery&submission_identifer=battery', json: 'submissionImage' },
    ]),
    upload('/api/v3/devices/:deviceRef/submissions_image', 'The same upload, at the path the docs\' README.md index names', [
      { query: 'image_identifier=battery&submission_identifer=battery', json: 'submissionImage' },
    ]),
    read('/api/v3/devices/:deviceRef/submission_images/:imageIdentifier/get_md5', 'The MD5 of the image as stored', { description: 'The MD5', other: { 'text/plain': '32 lower-case hexadecimal digits' } }, ({ send }) => submissionImageMd5(send), {
      hostile: [{ path: '/api/v3/devices/:deviceRef/submission_images/battery/get_md5' }],
    }),
    write(
      'post',
      '/api/v3/devices/:deviceRef/submission_images/:imageIdentifier/get_md5',
      [{ path: '/api/v3/devices/:deviceRef/submission_images/battery/get_md5', json: 'submissionImage' }],
      ({ send }) => checkSubmissionImageMd5(send),
      {
        summary: 'The docs\' example of get_md5: the bytes checked against the stored image',
        description: 'Nothing is written: 202 when the body\'s MD5 is the stored image\'s, 400 when it is not (upload the image again).',
        body: { other: { '*/*': "The image's bytes" } },
        answers: { 202: { description: 'The same bytes (empty body)' } },
        errors: [400, 404, 413],
      },
      { body: 'SUBMISSION_IMAGE_MAX_BYTES' },
    ),
    read('/api/v3/download_submission_image', 'A submission image\'s bytes by its uuid (birt_service.md)', { description: 'The image', other: { 'image/jpeg': 'a JPEG', 'image/png': 'a PNG' } }, ({ fetchWithAttachment }) => downloadSubmissionImage(fetchWithAttachment), {
      openapi: { query: { uuid: { schema: { type: 'string', format: 'uuid' }, description: 'The image\'s uuid, as its upload\'s Location names it (required)' } }, errors: [400, 404] },
      hostile: [{ query: 'uuid=00000000-0000-4000-8000-000000000000' }],
    }),
  ],
});
