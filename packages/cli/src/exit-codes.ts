/** What `formcast` exits with; scripts can rely on these. */
export const exitCodes = {
  ok: 0,
  /** Bad arguments or options, or no admin token to be found. */
  usage: 1,
  /** The server refused: not found, invalid, unauthorized (any 4xx). */
  refused: 2,
  /** The server could not be reached, timed out, or failed (5xx). */
  unreachable: 3,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** A failure the CLI reports in one line and exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}
