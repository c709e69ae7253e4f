import { isBase64 } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { Base64Decoder } from '../../src/http/resource-upload/base64-decoder';

/** The AppError `run` throws; fails when it throws nothing or something else. */
export function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** What the route made of file_data before: line breaks removed, checked, decoded whole. */
export function decodedAsBefore(text: string, spaceIsPlus: boolean): Buffer | 'invalid' {
  const spaced = spaceIsPlus ? text.replace(/ /g, '+') : text;
  const base64 = spaced.replace(/[\r\n\t ]/g, '');
  return isBase64(base64) ? Buffer.from(base64, 'base64') : 'invalid';
}

/** `value` with each decoder replaced by what it decoded, to compare with decodedAsBefore. */
export function withDecodedFiles(value: unknown): unknown {
  if (value instanceof Base64Decoder) return { decoded: value.valid ? value.bytes() : 'invalid' };
  if (Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) return value.map(withDecodedFiles);
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(copy, key, { value: withDecodedFiles((value as Record<string, unknown>)[key]), enumerable: true });
    }
    return copy;
  }
  return value;
}

/** resource.file.file_data of a parsed body, when it is there. */
export function fileDataOf(body: unknown): unknown {
  const resource = (body as { resource?: unknown } | null)?.resource;
  const file = typeof resource === 'object' && resource !== null && !Array.isArray(resource) ? (resource as { file?: unknown }).file : undefined;
  return typeof file === 'object' && file !== null && !Array.isArray(file) ? (file as { file_data?: unknown }).file_data : undefined;
}

/** Sets resource.file.file_data of a parsed body (known to be there). */
export function setFileData(body: unknown, value: unknown): void {
  ((body as { resource: { file: Record<string, unknown> } }).resource.file)['file_data'] = value;
}
