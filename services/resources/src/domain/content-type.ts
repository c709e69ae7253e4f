import { mapOverlayContentType, resourceContentTypes, type ResourceContentType } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

const allowed: ReadonlySet<string> = new Set(resourceContentTypes);

/**
 * The file's MIME type, checked against spec section 8 (plus the map overlay type). Case
 * and parameters (`; charset=utf-8`) do not matter; any other type is refused with 415,
 * naming the allowed ones.
 */
export function allowedContentType(given: string): ResourceContentType {
  const type = given.split(';', 1)[0]!.trim().toLowerCase();
  if (allowed.has(type)) return type as ResourceContentType;
  throw new AppError(
    'unsupported_media_type',
    `file.content_type: "${given.slice(0, 100)}" is not accepted; use one of ${resourceContentTypes.join(', ')}`,
  );
}

export function isMapOverlayType(type: string): boolean {
  return type === mapOverlayContentType;
}
