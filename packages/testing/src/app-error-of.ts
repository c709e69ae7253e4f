import { isAppError } from '@formcast/platform';

/** The AppError `action` rejects with, as its code and message; fails when it resolves or rejects with anything else. */
export async function appErrorOf(action: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await action.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}
