import { fromBufferPromise, type Entry } from 'yauzl';

/** More entries than any real document has: a crafted archive, refused before reading it. */
export const maxPackageEntries = 10_000;
/**
 * The most a workbook's sheets and shared strings may declare to inflate to. The summary
 * reads them streaming and stops early (a sheet after its first row, the shared strings
 * after the last one that row uses), so memory stays small whatever they declare; this
 * bounds the inflating a small archive can make the service do. Far above real workbooks
 * of the default size limit.
 */
export const maxInflatedWorkbookBytes = 2 * 1024 * 1024 * 1024;
/** The shared strings may be read to their end (a header using the last one): a tighter bound for them alone. */
export const maxSharedStringsBytes = 256 * 1024 * 1024;

/** Whether the summary of a workbook with these entries stays within the bounds above. */
export function workbookWithinBounds(entries: Map<string, PackageEntry>): boolean {
  let inflated = 0;
  for (const entry of entries.values()) {
    if (entry.name === 'xl/sharedStrings.xml' && entry.uncompressedSize > maxSharedStringsBytes) return false;
    if (entry.name === 'xl/sharedStrings.xml' || entry.name.startsWith('xl/worksheets/')) inflated += entry.uncompressedSize;
  }
  return inflated <= maxInflatedWorkbookBytes;
}

export interface PackageEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

/**
 * The entries of a ZIP archive, read from its central directory (nothing is inflated), or
 * null when the bytes are not a readable archive or have more entries than any document.
 */
export async function readPackageEntries(bytes: Buffer): Promise<Map<string, PackageEntry> | null> {
  let zip;
  try {
    zip = await fromBufferPromise(bytes, { lazyEntries: true, strictFileNames: false, validateEntrySizes: true });
  } catch {
    return null;
  }
  try {
    if (zip.entryCount > maxPackageEntries) return null;
    const entries = new Map<string, PackageEntry>();
    for await (const entry of zip.eachEntry() as AsyncIterable<Entry>) {
      entries.set(entry.fileName, {
        name: entry.fileName,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
      });
    }
    return entries;
  } catch {
    return null;
  } finally {
    closeQuietly(zip);
  }
}

function closeQuietly(zip: { close(): void }): void {
  try {
    zip.close();
  } catch {
    // already closed
  }
}

export type OfficeKind = 'spreadsheet' | 'document';

/** The part an Office Open XML package of each kind must contain besides `[Content_Types].xml`. */
const mainPart: Record<OfficeKind, string> = {
  spreadsheet: 'xl/workbook.xml',
  document: 'word/document.xml',
};

/**
 * Whether the bytes are an Office Open XML package of that kind: a ZIP archive holding
 * `[Content_Types].xml` and the kind's main part (`xl/workbook.xml`, `word/document.xml`).
 */
export async function isOfficePackage(bytes: Buffer, kind: OfficeKind): Promise<{ ok: true; entries: Map<string, PackageEntry> } | { ok: false; reason: string }> {
  const entries = await readPackageEntries(bytes);
  if (!entries) return { ok: false, reason: 'it is not a readable ZIP package' };
  for (const part of ['[Content_Types].xml', mainPart[kind]]) {
    if (!entries.has(part)) return { ok: false, reason: `the package has no ${part}` };
  }
  return { ok: true, entries };
}
