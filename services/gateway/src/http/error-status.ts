import type { ErrorCode } from '@formcast/contracts';

/** The one place error codes become HTTP statuses. */
export const errorStatus: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  not_modified: 304,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};
