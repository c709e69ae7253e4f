import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { fromBufferPromise, type Entry, type ZipFile } from 'yauzl';

const workbookRels = 'xl/_rels/workbook.xml.rels';
const workbookPart = 'xl/workbook.xml';
const sharedStringsPart = 'xl/sharedStrings.xml';
/** Stand-ins for parts a workbook may lack, so the reader never waits for them (see below). */
const emptyParts = new Map<string, Buffer>([
  [workbookRels, Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>')],
  [sharedStringsPart, Buffer.from('<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>')],
]);
/** The sheets exceljs's streaming reader recognizes. */
const sheetPart = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * A local file header for an entry stored as it is (no compression), with the sizes and
 * CRC known up front, so a streaming reader knows where the entry ends.
 */
function storedEntryHeader(name: string, size: number, crc32: number): Buffer {
  const fileName = Buffer.from(name, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4); // version needed to extract
  header.writeUInt16LE(0x0800, 6); // UTF-8 name
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt32LE(crc32 >>> 0, 14);
  header.writeUInt32LE(size, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(fileName.length, 26);
  return Buffer.concat([header, fileName]);
}

/** An empty end-of-central-directory record: where a streaming reader stops. */
function endOfArchive(): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return end;
}

type Part = { entry: Entry } | { name: string; content: Buffer };

async function* partsAsArchive(zip: ZipFile, parts: Part[], onFailure: (error: Error) => void): AsyncGenerator<Buffer> {
  try {
    for (const part of parts) {
      if ('content' in part) {
        yield storedEntryHeader(part.name, part.content.length, crc32(part.content));
        yield part.content;
        continue;
      }
      const { entry } = part;
      yield storedEntryHeader(entry.fileName, entry.uncompressedSize, entry.crc32);
      // Inflated by yauzl, which fails as soon as an entry inflates beyond its declared size.
      for await (const chunk of await zip.openReadStreamPromise(entry)) yield chunk as Buffer;
    }
    yield endOfArchive();
  } catch (error) {
    // The stream just ends (the reader then meets a cut archive), and the reason goes to
    // `failure`: a stream error would not cross the reader's pipe, leaving it waiting.
    onFailure(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * The parts of an .xlsx that the summary reads, as a new archive stream for exceljs's
 * streaming reader: the workbook's relationships, the workbook and the shared strings
 * first, then the sheets, each stored uncompressed after yauzl inflated it.
 *
 * Why: exceljs reads the archive front to back by its local headers. Given the sheets
 * before the workbook (as exceljs itself writes files), it copies them whole to temporary
 * files, which a failed read leaves behind; and local headers may disagree with the central
 * directory. Here only entries of the central directory are read, each held to its
 * declared size, nothing is written to disk, and parts the summary does not need (styles,
 * themes, media) are never inflated. A missing relationships or shared strings part is
 * given as an empty one, as exceljs would otherwise spill the sheets to disk waiting for it.
 * `failure` rejects when the archive cannot be read that way (a part inflating beyond its
 * declared size, a corrupt entry): race the reading against it.
 */
export async function workbookPartsStream(bytes: Buffer): Promise<{ stream: Readable; failure: Promise<never> }> {
  const zip = await fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  const byName = new Map<string, Entry>();
  for await (const entry of zip.eachEntry() as AsyncIterable<Entry>) byName.set(entry.fileName, entry);
  const sheets = [...byName.values()]
    .filter((entry) => sheetPart.test(entry.fileName))
    .sort((a, b) => sheetNumber(a) - sheetNumber(b));
  const head: Part[] = [workbookRels, workbookPart, sharedStringsPart].flatMap((name): Part[] => {
    const entry = byName.get(name);
    if (entry) return [{ entry }];
    const content = emptyParts.get(name);
    return content ? [{ name, content }] : [];
  });
  let fail: (error: Error) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failure.catch(() => undefined); // observed by whoever races it
  const parts = [...head, ...sheets.map((entry) => ({ entry }))];
  return { stream: Readable.from(partsAsArchive(zip, parts, fail), { objectMode: false }), failure };
}

function sheetNumber(entry: Entry): number {
  return Number(sheetPart.exec(entry.fileName)?.[1] ?? 0);
}
