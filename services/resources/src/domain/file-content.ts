import { mapOverlayContentType, type ResourceContentType } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { isJpeg, isPdf, isPng } from './file-signatures';
import { checkMapOverlay, looksLikeMapOverlay } from './map-overlay';
import { isOfficePackage, workbookWithinBounds, type OfficeKind } from './office-package';
import { decodeUtf8, parseJsonText, xmlProblem } from './text-content';

const spreadsheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const documentType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** How the checks below name each type in their messages. */
const typeNames: Record<ResourceContentType, string> = {
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'application/pdf': 'a PDF document',
  'application/xml': 'XML',
  'text/xml': 'XML',
  'text/plain': 'UTF-8 text',
  'application/json': 'JSON',
  [mapOverlayContentType]: 'a JSON map overlay',
  [spreadsheetType]: 'an .xlsx spreadsheet',
  [documentType]: 'a .docx document',
};

function mismatch(type: ResourceContentType, reason: string): AppError {
  return new AppError('unprocessable', `file.file_data: the bytes are not ${typeNames[type]} as content_type says: ${reason}`);
}

/** What a successful check learnt about the file. */
export interface ContentFacts {
  isSpreadsheet: boolean;
}

/**
 * Checks that the bytes are what their type claims: PNG, JPEG and PDF by signature and
 * structure, .xlsx and .docx as ZIP packages with their main parts, JSON and XML by parsing
 * (XML under the gateway's rules), text as UTF-8; a map overlay (its own type, or JSON with
 * a bounding box) also by the overlay rules. AppError('unprocessable') when the bytes do
 * not match the type, AppError('invalid') naming the field for a broken overlay.
 */
export async function checkFileContent(type: ResourceContentType, bytes: Buffer): Promise<ContentFacts> {
  switch (type) {
    case 'image/png':
      if (!isPng(bytes)) throw mismatch(type, 'no PNG signature or a broken chunk structure');
      break;
    case 'image/jpeg':
      if (!isJpeg(bytes)) throw mismatch(type, 'no JPEG markers from start of image to end of image');
      break;
    case 'application/pdf':
      if (!isPdf(bytes)) throw mismatch(type, 'no %PDF- header or no %%EOF trailer');
      break;
    case spreadsheetType:
      await checkOfficePackage(type, bytes, 'spreadsheet');
      return { isSpreadsheet: true };
    case documentType:
      await checkOfficePackage(type, bytes, 'document');
      break;
    case 'text/plain':
      if (decodeUtf8(bytes) === null) throw mismatch(type, 'it is not valid UTF-8');
      break;
    case 'application/xml':
    case 'text/xml': {
      const problem = xmlProblem(utf8Text(type, bytes));
      if (problem) throw mismatch(type, problem);
      break;
    }
    case 'application/json':
    case mapOverlayContentType: {
      const parsed = parseJsonText(utf8Text(type, bytes));
      if (!parsed.ok) throw mismatch(type, parsed.reason);
      if (type === mapOverlayContentType || looksLikeMapOverlay(parsed.value)) checkMapOverlay(parsed.value);
      break;
    }
  }
  return { isSpreadsheet: false };
}

function utf8Text(type: ResourceContentType, bytes: Buffer): string {
  const text = decodeUtf8(bytes);
  if (text === null) throw mismatch(type, 'it is not valid UTF-8');
  return text;
}

async function checkOfficePackage(type: ResourceContentType, bytes: Buffer, kind: OfficeKind): Promise<void> {
  const result = await isOfficePackage(bytes, kind);
  if (!result.ok) throw mismatch(type, result.reason);
  if (kind === 'spreadsheet' && !workbookWithinBounds(result.entries)) {
    throw mismatch(type, 'its sheets would inflate far beyond any real workbook');
  }
}
