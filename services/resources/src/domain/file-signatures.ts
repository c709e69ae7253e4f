/**
 * Signature and structure checks of binary formats, on the bytes alone. Each answers
 * whether the bytes are a well-formed file of that type; none decodes pixels or pages.
 */

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The PNG signature, an IHDR chunk first, and a chain of chunks inside the file up to IEND. */
export function isPng(bytes: Buffer): boolean {
  if (bytes.length < pngSignature.length + 25 || !bytes.subarray(0, 8).equals(pngSignature)) return false;
  let offset = pngSignature.length;
  let first = true;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type) || offset + 12 + length > bytes.length) return false;
    if (first) {
      if (type !== 'IHDR' || length !== 13) return false;
      const width = bytes.readUInt32BE(offset + 8);
      const height = bytes.readUInt32BE(offset + 12);
      if (width === 0 || height === 0) return false;
      first = false;
    }
    if (type === 'IEND') return true;
    offset += 12 + length;
  }
  return false;
}

const startOfImage = 0xd8;
const startOfScan = 0xda;
const endOfImage = 0xd9;

/** A start-of-frame marker (SOF0–SOF15, which excludes DHT, JPG and DAC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * SOI, then a chain of well-formed marker segments with a frame header before the first
 * scan, and an EOI marker after it.
 */
export function isJpeg(bytes: Buffer): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== startOfImage) return false;
  let offset = 2;
  let sawFrame = false;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return false;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return false;
    if (isStartOfFrame(marker)) sawFrame = true;
    if (marker === startOfScan) {
      const end = bytes.lastIndexOf(Buffer.from([0xff, endOfImage]));
      return sawFrame && end >= offset + 2 + length;
    }
    offset += 2 + length;
  }
  return false;
}

/** `%PDF-1.x` or `%PDF-2.x` near the start, and `%%EOF` near the end (readers allow 1 KB either side). */
export function isPdf(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('latin1');
  const tail = bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1');
  return /%PDF-[12]\.\d/.test(head) && tail.includes('%%EOF');
}

/** A ZIP archive's local file header signature (`PK\x03\x04`). */
export function looksLikeZip(bytes: Buffer): boolean {
  return bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}
