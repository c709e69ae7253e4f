import { isBase64 } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { isJpeg, isPng } from './file-signatures';

/** The fields that make a JSON object a map overlay (spec 2.4): its bounding box. */
const boundingFields = ['north', 'south', 'east', 'west'] as const;
const decimalFields = [...boundingFields, 'rotation', 'opacity'] as const;
type DecimalField = (typeof decimalFields)[number];

/** A plain decimal number written as text: `51.5`, `-0.12`, `.5`, `1`; no exponent, no spaces. */
const decimalText = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Whether a parsed `application/json` file is a map overlay: an object with any of the
 * bounding-box fields. Such a file must then be a valid overlay; other JSON is stored as is.
 */
export function looksLikeMapOverlay(value: unknown): boolean {
  return isObject(value) && boundingFields.some((field) => field in value);
}

const invalid = (field: string, rule: string) => new AppError('invalid', `file.file_data (map overlay): ${field}: ${rule}`);

/**
 * The map overlay rules: `north/south/east/west/rotation/opacity` are strings of decimal
 * numbers, latitudes within [-90, 90] with north above south, longitudes within [-180, 180],
 * opacity within [0, 1]; `image` is Base64 of a PNG or JPEG. AppError('invalid') naming
 * the first field that breaks a rule.
 */
export function checkMapOverlay(value: unknown): void {
  if (!isObject(value)) {
    throw new AppError('invalid', 'file.file_data (map overlay): must be a JSON object with north, south, east, west, rotation, opacity and image');
  }
  const numbers = {} as Record<DecimalField, number>;
  for (const field of decimalFields) {
    const text = value[field];
    if (text === undefined) throw invalid(field, 'is required');
    if (typeof text !== 'string' || !decimalText.test(text)) {
      throw invalid(field, 'must be a string holding a decimal number, e.g. "51.5"');
    }
    numbers[field] = Number(text);
  }
  for (const field of ['north', 'south'] as const) {
    if (numbers[field] < -90 || numbers[field] > 90) throw invalid(field, 'must be a latitude within [-90, 90]');
  }
  for (const field of ['east', 'west'] as const) {
    if (numbers[field] < -180 || numbers[field] > 180) throw invalid(field, 'must be a longitude within [-180, 180]');
  }
  if (!(numbers.north > numbers.south)) throw invalid('north', 'must be greater than south');
  if (numbers.opacity < 0 || numbers.opacity > 1) throw invalid('opacity', 'must be within [0, 1]');
  checkOverlayImage(value['image']);
}

function checkOverlayImage(image: unknown): void {
  if (image === undefined) throw invalid('image', 'is required');
  if (typeof image !== 'string') throw invalid('image', 'must be a string of Base64');
  const base64 = image.replace(/[\r\n\t ]/g, '');
  if (base64.length === 0 || !isBase64(base64)) throw invalid('image', 'must be Base64 of a PNG or JPEG image');
  const bytes = Buffer.from(base64, 'base64');
  if (!isPng(bytes) && !isJpeg(bytes)) throw invalid('image', 'must be Base64 of a PNG or JPEG image');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
