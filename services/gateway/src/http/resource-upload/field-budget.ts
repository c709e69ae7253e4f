import { AppError } from '@formcast/platform';

/** What the fields besides `file.file_data` may take in all (the 64 KiB of `resourceBodyLimit`). */
export const otherFieldsLimit = 64 * 1024;

/**
 * Counts what a body's fields other than the file take while they are read, so that only
 * the file can be large: AppError('too_large') past the limit.
 */
export class FieldBudget {
  private used = 0;

  constructor(private readonly limit = otherFieldsLimit) {}

  spend(amount: number): void {
    this.used += amount;
    if (this.used > this.limit) {
      throw new AppError('too_large', `The request body is too large: the fields besides file.file_data may take at most ${this.limit} characters in all`);
    }
  }
}
