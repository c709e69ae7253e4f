import type { OperationSpec, PathTable } from './operation';

/** Submission images (v3/submission_image.md, submission_image.md, birt_service.md). */

const identifierSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\s/\\\\]+$' };

const upload = (summary: string): OperationSpec => ({
  summary,
  description:
    "The body is the image's bytes (JPEG or PNG, at most SUBMISSION_IMAGE_MAX_BYTES), whatever its Content-Type: the docs' curl sends them with `-d`. The same `image_identifier` again on the same device replaces the bytes, keeping the image's uuid. With `Content-MD5` (RFC 1864 Base64, or 32 hexadecimal digits) or `md5`, a body whose MD5 differs is 400 and nothing is saved.",
  auth: 'apiToken',
  suffixes: '.json',
  query: {
    image_identifier: { schema: identifierSchema, description: 'The image\'s identifier, as the submission named it (required)' },
    submission_identifer: { schema: identifierSchema, description: 'The submission\'s identifier (`submissionIdentifier`), spelt as the docs spell it; `submission_identifier` is taken too (required)' },
    md5: { schema: { type: 'string', pattern: '^[0-9a-fA-F]{32}$' }, description: 'The MD5 of the body, where no Content-MD5 header gives it' },
  },
  body: { other: { '*/*': "The image's bytes" } },
  answers: { 202: { description: 'Saved (empty body)', headers: { Location: 'Where the image is read back: `/api/v3/download_submission_image?uuid=<uuid>`' } } },
  errors: [400, 404, 413, 415],
});

export const submissionImagePaths: PathTable = {
  '/api/v3/devices/{deviceRef}/submission_images': { post: upload("Upload an image of a device's submission") },
  '/api/v3/devices/{deviceRef}/submissions_image': { post: upload('The same upload, at the path the docs\' README.md index names') },
  '/api/v3/devices/{deviceRef}/submission_images/{imageIdentifier}/get_md5': {
    get: {
      summary: 'The MD5 of the image as stored',
      auth: 'apiToken',
      suffixes: 'none',
      answers: { 200: { description: 'The MD5', other: { 'text/plain': '32 lower-case hexadecimal digits' } } },
      errors: [404],
    },
    post: {
      summary: 'The docs\' example of get_md5: the bytes checked against the stored image',
      description: 'Nothing is written: 202 when the body\'s MD5 is the stored image\'s, 400 when it is not (upload the image again).',
      auth: 'apiToken',
      suffixes: 'none',
      body: { other: { '*/*': "The image's bytes" } },
      answers: { 202: { description: 'The same bytes (empty body)' } },
      errors: [400, 404, 413],
    },
  },
  '/api/v3/download_submission_image': {
    get: {
      summary: 'A submission image\'s bytes by its uuid (birt_service.md)',
      auth: 'apiToken',
      suffixes: 'none',
      query: { uuid: { schema: { type: 'string', format: 'uuid' }, description: 'The image\'s uuid, as its upload\'s Location names it (required)' } },
      answers: { 200: { description: 'The image', other: { 'image/jpeg': 'a JPEG', 'image/png': 'a PNG' } } },
      errors: [400, 404],
    },
  },
};
