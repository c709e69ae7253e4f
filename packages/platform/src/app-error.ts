import type { ErrorBody, ErrorCode } from '@formcast/contracts';

/** The one error type: created where a problem is found, mapped to a status by the gateway. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.code, body.message, body.details);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** What `work` resolves with, or null when it fails with not_found (a record deleted since); any other failure is thrown. */
export async function nullIfNotFound<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return null;
    throw error;
  }
}

/** Any thrown value as an error body; unknown errors become `internal` without internals. */
export function toErrorBody(error: unknown): ErrorBody {
  return isAppError(error) ? error.toBody() : { code: 'internal', message: 'Internal error' };
}
