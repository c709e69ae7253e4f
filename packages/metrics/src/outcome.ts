/** A failure as a label value: the AppError code (`timeout`, `not_found`, …), else `error`. */
export function outcomeOfError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? code : 'error';
}
