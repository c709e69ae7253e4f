import { AppError } from '@formcast/platform';

const invalid = -1;
const skipped = -2;
const padding = -3;

/** Each ASCII character's 6-bit value, or what it is when it carries none. */
function sextets(spaceIsPlus: boolean): Int8Array {
  const table = new Int8Array(128).fill(invalid);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  for (const breakChar of '\r\n\t') table[breakChar.charCodeAt(0)] = skipped;
  table[' '.charCodeAt(0)] = spaceIsPlus ? 62 : skipped;
  table['='.charCodeAt(0)] = padding;
  return table;
}

const jsonSextets = sextets(false);
const formSextets = sextets(true);

/**
 * How far past the limit a file is still counted before the 413: a file just over it is
 * refused with its exact size once its text ends, as before; a much larger one is refused
 * without reading it to the end.
 */
export const exactSizeGraceBytes = 64 * 1024;

/** The buffer's first size when the text's length is not known in advance. */
const unknownSizeStartBytes = 64 * 1024;

export interface Base64DecoderOptions {
  /** RESOURCE_MAX_BYTES: bytes past it are counted, not kept. */
  maxBytes: number;
  /** The most the text can decode to (from Content-Length), when known: one allocation of that size. */
  sizeHint?: number;
  /** Form bodies: a space is a `+` that was not percent-encoded. In JSON a space is dropped, like a line break. */
  spaceIsPlus: boolean;
}

/**
 * Decodes Base64 fed in pieces of any size straight into one Buffer, by the rules of
 * `isBase64` on the text with its line breaks removed: the standard alphabet, at most two
 * `=` and only at the end, unpadded text accepted unless a single character is left over.
 * Invalid text is remembered, not thrown, so the route reports it in its usual order.
 */
export class Base64Decoder {
  private readonly table: Int8Array;
  private readonly maxBytes: number;
  private buffer: Buffer;
  /** Bytes of the complete groups so far; kept in `buffer` only while within `maxBytes`. */
  private decoded = 0;
  private dataChars = 0;
  private paddingChars = 0;
  /** Characters of the current group of four, and their bits. */
  private groupChars = 0;
  private groupBits = 0;
  private broken = false;
  private ended = false;

  constructor(options: Base64DecoderOptions) {
    this.table = options.spaceIsPlus ? formSextets : jsonSextets;
    this.maxBytes = options.maxBytes;
    // allocUnsafeSlow: a large buffer costs no memory until its pages are written, and never
    // a slice of the shared pool (64 KiB from Node 24), which a long upload would pin.
    this.buffer = Buffer.allocUnsafeSlow(Math.min(options.sizeHint ?? unknownSizeStartBytes, this.maxBytes));
  }

  /** Whether the text was Base64; meaningful once ended. */
  get valid(): boolean {
    return !this.broken;
  }

  /** The decoded size so far, counted past `maxBytes` too. */
  get size(): number {
    return Math.floor((this.dataChars * 3) / 4);
  }

  /** The decoded bytes, once ended, valid and within `maxBytes`. */
  bytes(): Buffer {
    if (!this.ended || this.broken || this.size > this.maxBytes) throw new Error('Base64Decoder: no bytes to hand over');
    return this.buffer.subarray(0, this.decoded);
  }

  /** Throws AppError('too_large') once the text decodes to well past `maxBytes`. */
  write(text: string): void {
    if (this.broken || this.ended) return;
    const table = this.table;
    let { buffer, decoded, dataChars, paddingChars, groupChars, groupBits } = this;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const value = code < 128 ? table[code]! : invalid;
      if (value >= 0 && paddingChars === 0) {
        groupBits = (groupBits << 6) | value;
        dataChars++;
        if (++groupChars === 4) {
          // Past maxBytes the file is refused: its bytes are counted, not kept.
          if (decoded + 3 <= this.maxBytes) {
            if (decoded + 3 > buffer.length) buffer = this.grow(decoded, decoded + 3);
            buffer[decoded] = groupBits >> 16;
            buffer[decoded + 1] = (groupBits >> 8) & 0xff;
            buffer[decoded + 2] = groupBits & 0xff;
          }
          decoded += 3;
          groupChars = 0;
          groupBits = 0;
        }
      } else if (value === padding && paddingChars < 2) {
        paddingChars++;
      } else if (value !== skipped) {
        this.broken = true;
        return;
      }
    }
    this.decoded = decoded;
    this.dataChars = dataChars;
    this.paddingChars = paddingChars;
    this.groupChars = groupChars;
    this.groupBits = groupBits;
    if (this.size > this.maxBytes + exactSizeGraceBytes) {
      throw new AppError('too_large', `file.file_data: the file is over ${this.maxBytes} bytes; the largest accepted is ${this.maxBytes} bytes`);
    }
  }

  /** The text is complete: checks its length and keeps the last, partial group. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.broken) return;
    const total = this.dataChars + this.paddingChars;
    if (total % 4 === 1 || (this.paddingChars > 0 && total % 4 !== 0)) {
      this.broken = true;
      return;
    }
    // Two characters carry one byte and four spare bits, three carry two bytes and two.
    if (this.groupChars === 2) this.keep(1, this.groupBits >> 4);
    else if (this.groupChars === 3) this.keep(2, this.groupBits >> 2);
  }

  /** Keeps the low `count` bytes of `bits`, high byte first, while within `maxBytes`. */
  private keep(count: number, bits: number): void {
    if (this.decoded + count <= this.maxBytes) {
      if (this.decoded + count > this.buffer.length) this.grow(this.decoded, this.decoded + count);
      for (let shift = 8 * (count - 1), at = this.decoded; shift >= 0; shift -= 8) this.buffer[at++] = (bits >> shift) & 0xff;
    }
    this.decoded += count;
  }

  /** A larger buffer holding the `kept` bytes so far: double the size, or what is needed. */
  private grow(kept: number, needed: number): Buffer {
    const next = Buffer.allocUnsafeSlow(Math.min(Math.max(needed, 2 * this.buffer.length), this.maxBytes));
    this.buffer.copy(next, 0, 0, kept);
    this.buffer = next;
    return next;
  }
}
