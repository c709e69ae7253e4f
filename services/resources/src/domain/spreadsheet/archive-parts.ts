import type { Readable } from 'node:stream';
import { fromBufferPromise, type Entry, type ZipFile } from 'yauzl';
import { maxPackageEntries } from '../office-package';

/** The parts of an .xlsx archive, read from its central directory. */
export interface ArchiveParts {
  /** The part of that name, compared case-insensitively as the package format does. */
  find(name: string): Entry | undefined;
  /**
   * The part's bytes as yauzl inflates them, failing as soon as they pass the declared
   * size. Stop reading (destroy the stream, or leave a `for await` early) to stop inflating.
   */
  open(entry: Entry): Promise<Readable>;
  close(): void;
}

/**
 * Lists the entries of the archive in `bytes` (nothing is inflated yet, nothing is written
 * to disk). Throws when the bytes are not a readable ZIP archive or have more entries than
 * any document.
 */
export async function openArchiveParts(bytes: Buffer): Promise<ArchiveParts> {
  const zip = await fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  try {
    if (zip.entryCount > maxPackageEntries) throw new Error(`the archive has more than ${maxPackageEntries} entries`);
    const byName = new Map<string, Entry>();
    for await (const entry of zip.eachEntry()) {
      const key = entry.fileName.toLowerCase();
      if (!byName.has(key)) byName.set(key, entry);
    }
    return {
      find: (name) => byName.get(name.toLowerCase()),
      open: (entry) => zip.openReadStreamPromise(entry),
      close: () => closeQuietly(zip),
    };
  } catch (error) {
    closeQuietly(zip);
    throw error;
  }
}

function closeQuietly(zip: ZipFile): void {
  try {
    zip.close();
  } catch {
    // already closed
  }
}
