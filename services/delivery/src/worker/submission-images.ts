import type { Bus } from '@formcast/bus';
import { createEnvelope, submissionImageCommands } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import type { Delivery } from '../domain/records';

/** Bounds on the images one document draws: how many are asked, the bytes of one, of all. */
export const imageLimits = { count: 50, bytesEach: 10 * 1024 * 1024, bytesInAll: 40 * 1024 * 1024 };

/**
 * The images a document names but the submission does not carry, asked of push
 * (`push.submission.image.get`), a few at a time: identifier -> bytes, or why there are none,
 * written where the image would be. Not uploaded yet (not_found) and nothing serving the
 * command (unavailable) are placeholders: the document goes without them. A timeout or
 * another failure throws: the attempt fails and is tried again later.
 */
export async function submissionImages(bus: Bus, delivery: Delivery, names: string[], timeoutMs: number): Promise<Record<string, Uint8Array | string>> {
  const images: Record<string, Uint8Array | string> = {};
  let total = 0;
  const asked = names.slice(0, imageLimits.count);
  for (const name of names.slice(imageLimits.count)) images[name] = `not included (more than ${imageLimits.count} images)`;
  const one = async (name: string): Promise<void> => {
    try {
      const answer = await bus.requestWithAttachment(
        createEnvelope(submissionImageCommands.getSubmissionImage, { submissionId: delivery.submissionId, imageIdentifier: name }, { orgId: delivery.orgId, requestId: `delivery-${delivery.id}` }),
        { timeoutMs },
      );
      const bytes = answer.attachment;
      if (!bytes || bytes.length === 0) images[name] = 'not received yet';
      else if (bytes.length > imageLimits.bytesEach) images[name] = `not included (over ${imageLimits.bytesEach} bytes)`;
      else if (total + bytes.length > imageLimits.bytesInAll) images[name] = `not included (the document's images are over ${imageLimits.bytesInAll} bytes)`;
      else {
        total += bytes.length;
        images[name] = new Uint8Array(bytes);
      }
    } catch (error) {
      if (isAppError(error) && (error.code === 'not_found' || error.code === 'invalid')) images[name] = 'not received yet';
      else if (isAppError(error) && error.code === 'unavailable') images[name] = 'not available';
      else throw error;
    }
  };
  for (let i = 0; i < asked.length; i += 4) await Promise.all(asked.slice(i, i + 4).map(one));
  return images;
}
