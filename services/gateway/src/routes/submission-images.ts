import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import {
  pushCommands,
  type SubmissionImageFileView,
  type SubmissionImageMd5View,
  type SubmissionImageSavedView,
} from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { FetchWithAttachment, SendCommand } from '../http/send-command';

/** A query parameter given once, or undefined when absent or empty. */
function queryText(req: Request, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = req.query[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw new AppError('invalid', `${name}: give it once`);
    return value;
  }
  return undefined;
}

/**
 * The MD5 the client says it sent: `Content-MD5` (RFC 1864: the digest's 16 bytes in Base64;
 * 32 hexadecimal digits are taken too), or the `md5` query parameter (hexadecimal); undefined
 * when neither is given. A malformed one is 400.
 */
export function declaredMd5(req: Request): string | undefined {
  const header = req.headers['content-md5'];
  const given = typeof header === 'string' && header.trim() !== '' ? header.trim() : queryText(req, 'md5');
  if (given === undefined) return undefined;
  if (/^[0-9a-fA-F]{32}$/.test(given)) return given.toLowerCase();
  if (/^[A-Za-z0-9+/]{22}==$/.test(given)) return Buffer.from(given, 'base64').toString('hex');
  throw new AppError('invalid', 'Content-MD5: must be the MD5 of the body, in Base64 (RFC 1864) or as 32 hexadecimal digits');
}

/** The body as the image's bytes: a Buffer read by readLimitedBody; none is 400. */
function imageBytes(req: Request): Buffer {
  const body: unknown = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError('invalid', "The body must be the image's bytes (it was empty)");
  return body;
}

/*
 * Submission images (v3/submission_image.md, submission_image.md; birt_service.md's
 * download). The device's paths take the image's bytes as the body, whatever its
 * Content-Type (the docs' curl sends them with `-d`), read up to SUBMISSION_IMAGE_MAX_BYTES
 * after authentication. The user paths (`/api/v3/users/…`) are the users' 404 of
 * dispatches.ts: Formcast has no web users. Another organization's device or image is 404.
 */

/** 202, empty, as documented, with the image's download as Location. README.md's index names the path `…/submissions_image`: taken too. */
export const uploadSubmissionImage = (send: SendCommand): RequestHandler => async (req, res) => {
  const imageIdentifier = queryText(req, 'image_identifier');
  // The docs spell it `submission_identifer`; the right spelling is taken as well.
  const submissionIdentifier = queryText(req, 'submission_identifer', 'submission_identifier');
  if (imageIdentifier === undefined) throw new AppError('invalid', 'image_identifier: required, the identifier the submission gave the image');
  if (submissionIdentifier === undefined) throw new AppError('invalid', 'submission_identifer: required, the identifier of the submission the image is for');
  const md5 = declaredMd5(req);
  const saved = await send<SubmissionImageSavedView>(
    req,
    pushCommands.saveSubmissionImage,
    {
      deviceRef: String(req.params['deviceRef']),
      image_identifier: imageIdentifier,
      submission_identifier: submissionIdentifier,
      ...(md5 === undefined ? {} : { md5 }),
    },
    imageBytes(req),
  );
  // The body stays empty, as documented; where the bytes can be read back is the Location.
  res.status(202).location(`/api/v3/download_submission_image?uuid=${saved.uuid}`).end();
};

/** The stored image's MD5, as its device and identifier name it. */
const storedMd5 = (send: SendCommand, req: Request) =>
  send<SubmissionImageMd5View>(req, pushCommands.getSubmissionImageMd5, {
    deviceRef: String(req.params['deviceRef']),
    image_identifier: String(req.params['imageIdentifier']),
  });

/** The MD5 of the image as stored, as 32 hexadecimal digits (text/plain). */
export const submissionImageMd5 = (send: SendCommand): RequestHandler => async (req, res) => {
  const { md5 } = await storedMd5(send, req);
  res.type('text/plain').send(md5);
};

/**
 * The docs' example of get_md5 is a POST with the image's bytes, answered 202 and empty:
 * the bytes are checked against the stored image's MD5; a difference is 400. Nothing is written.
 */
export const checkSubmissionImageMd5 = (send: SendCommand): RequestHandler => async (req, res) => {
  const { md5 } = await storedMd5(send, req);
  const sent = createHash('md5').update(imageBytes(req)).digest('hex');
  if (sent !== md5) throw new AppError('invalid', `The body's MD5 is ${sent}; the stored image's is ${md5}: upload the image again`);
  res.status(202).end();
};

/** birt_service.md: the image's bytes by its uuid. */
export const downloadSubmissionImage = (fetchWithAttachment: FetchWithAttachment): RequestHandler => async (req, res) => {
  const uuid = queryText(req, 'uuid');
  if (uuid === undefined) throw new AppError('invalid', 'uuid: required, the uuid of the submission image');
  const { value, attachment } = await fetchWithAttachment<SubmissionImageFileView>(req, pushCommands.downloadSubmissionImage, { uuid });
  if (!attachment) throw new AppError('internal', 'The push service answered a download without the image');
  res.status(200);
  res.setHeader('Content-Type', value.content_type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', String(attachment.length));
  res.end(attachment);
};
