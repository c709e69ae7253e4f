import { createHash, randomUUID } from 'node:crypto';
import type { ResourceFilePayload } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { allowedContentType } from './content-type';
import { checkFileContent } from './file-content';
import type { CheckedFile } from './records';
import { SummaryBudgetExceeded, type SummaryBudgetLimits } from './spreadsheet/limits';
import { summarizeSpreadsheet } from './spreadsheet-summary';

export interface FileRules {
  /** The largest file, in bytes once decoded (RESOURCE_MAX_BYTES). */
  maxFileBytes: number;
  /** What a spreadsheet's summary may cost (RESOURCE_SUMMARY_MAX_BYTES, RESOURCE_SUMMARY_MAX_CPU_MS; default: theirs). */
  summaryBudget?: SummaryBudgetLimits;
  /** New UUIDs (identifier, table and column ids); random v4 unless a test fixes them. */
  newId?: () => string;
}

/**
 * A file from a create or update (its bytes are the command's attachment), checked in
 * order: it has bytes (400: an empty `file_data` makes no resource), its type is an
 * allowed one (415), its size is within the limit (413), its bytes are what the type
 * claims (422; 400 for a broken map overlay). Then what is derived from
 * it: the spreadsheet summary, the identifier and the digest. Nothing here is stored.
 */
export async function checkFile(file: ResourceFilePayload, bytes: Buffer | undefined, rules: FileRules): Promise<CheckedFile> {
  const newId = rules.newId ?? randomUUID;
  if (!bytes) throw new AppError('invalid', 'file.file_data: required, the file\'s bytes in Base64');
  if (bytes.length === 0) throw new AppError('invalid', 'file.file_data: the file is empty; send its bytes in Base64');
  const contentType = allowedContentType(file.content_type);
  const size = bytes.length;
  if (size > rules.maxFileBytes) {
    throw new AppError('too_large', `file.file_data: the file is ${size} bytes; the largest accepted is ${rules.maxFileBytes} bytes`);
  }
  const facts = await checkFileContent(contentType, bytes);
  let contentSummary: CheckedFile['contentSummary'] = [];
  if (facts.isSpreadsheet) {
    try {
      contentSummary = await summarizeSpreadsheet(file.file_name, bytes, newId, rules.summaryBudget);
    } catch (error) {
      if (error instanceof SummaryBudgetExceeded) {
        throw new AppError(
          'unprocessable',
          `file.file_data: summarizing the spreadsheet's first rows would take ${error.message} (RESOURCE_SUMMARY_MAX_BYTES, RESOURCE_SUMMARY_MAX_CPU_MS); nothing was stored`,
        );
      }
      throw new AppError('unprocessable', 'file.file_data: the spreadsheet cannot be read: a sheet or its shared strings are malformed');
    }
  }
  return {
    originalFilename: file.file_name,
    contentType,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    identifier: newId(),
    contentSummary,
  };
}
