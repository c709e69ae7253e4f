/** A refusal of the API, with the message it gave (or what went wrong on the way). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The message of an error answer: a 400 is plain text (`response_type: ERROR` /
 * `response_code: bad_request` / `message: …`), the others JSON `{"message": …}`.
 */
export function errorMessageOf(status: number, body: string): string {
  const plain = /^message: (.*)$/m.exec(body);
  if (plain?.[1]) return plain[1];
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message !== '') return parsed.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `The server answered ${status}`;
}
