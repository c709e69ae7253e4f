/**
 * The protobuf wire format, written forwards into one growing buffer: what the OTLP span
 * encoding needs (varints, fixed32/64, strings, hex ids as bytes, nested messages) and
 * nothing else. A nested message is written in place after a one-byte length, moved along
 * only when it turns out 128 bytes or longer.
 */
export class ProtobufWriter {
  private buffer: Buffer;
  pos = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buffer = Buffer.allocUnsafeSlow(initialBytes);
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.pos + bytes));
    this.buffer.copy(grown, 0, 0, this.pos);
    this.buffer = grown;
  }

  /** The bytes written so far, in an ArrayBuffer of their own (to transfer), and the writer emptied. */
  take(): Uint8Array {
    const written = new Uint8Array(this.pos);
    written.set(this.buffer.subarray(0, this.pos));
    this.pos = 0;
    return written;
  }

  tag(field: number, wireType: 0 | 1 | 2 | 5): void {
    this.varint(field * 8 + wireType);
  }

  /** A non-negative integer below 2^53. */
  varint(value: number): void {
    this.ensure(10);
    const buffer = this.buffer;
    while (value > 0x7f) {
      buffer[this.pos++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    buffer[this.pos++] = value;
  }

  /** An int64 varint: negative values as 64-bit two's complement (10 bytes). */
  int64(value: number): void {
    if (value >= 0 && value <= Number.MAX_SAFE_INTEGER) return this.varint(value);
    let rest = BigInt.asUintN(64, BigInt(Math.trunc(Math.max(-(2 ** 63), Math.min(value, 2 ** 63 - 1)))));
    this.ensure(10);
    while (rest > 0x7fn) {
      this.buffer[this.pos++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    this.buffer[this.pos++] = Number(rest);
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** An HrTime ([seconds, nanoseconds]) as fixed64 nanoseconds, exactly: in 16-bit limbs, every product stays below 2^53. */
  hrTime(time: readonly [number, number]): void {
    const [seconds, nanos] = time;
    const high16 = Math.floor(seconds / 65536);
    const low16 = seconds % 65536;
    // 1e9 = 15258 × 65536 + 51712
    const middle = high16 * 51712 + low16 * 15258;
    const low = low16 * 51712 + nanos + (middle % 65536) * 65536;
    const low32 = low % 4294967296;
    const high32 = high16 * 15258 + Math.floor(middle / 65536) + Math.floor(low / 4294967296);
    this.fixed32(low32);
    this.fixed32(high32);
  }

  /**
   * A length-delimited field of UTF-8 text. Short ASCII text (span names, attribute keys and
   * most values) is copied a character at a time: cheaper than a call into Buffer.write.
   */
  string(field: number, value: string): void {
    this.tag(field, 2);
    const length = value.length;
    this.ensure(5 + length * 3);
    const buffer = this.buffer;
    const start = this.pos;
    if (length < 128) {
      let at = start + 1;
      for (let i = 0; i < length; i += 1) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) {
          at = -1;
          break;
        }
        buffer[at++] = code;
      }
      if (at !== -1) {
        buffer[start] = length;
        this.pos = at;
        return;
      }
    }
    this.pos = start + 1;
    this.pos += buffer.write(value, this.pos, 'utf8');
    this.finish(start);
  }

  /** A length-delimited field of bytes given as lower-case hex (trace and span ids). */
  hexBytes(field: number, hex: string): void {
    const length = hex.length >>> 1;
    this.tag(field, 2);
    this.ensure(1 + length);
    this.buffer[this.pos++] = length;
    this.pos += this.buffer.write(hex, this.pos, length, 'hex');
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2);
    this.varint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.pos);
    this.pos += value.length;
  }

  /** Starts a length-delimited field (a nested message); `finish` with what this returns once it is written. */
  begin(field: number): number {
    this.tag(field, 2);
    this.ensure(1);
    const start = this.pos;
    this.pos += 1;
    return start;
  }

  /** Writes the length of the field begun at `start`, moving its bytes along when the length takes more than one byte. */
  finish(start: number): void {
    const length = this.pos - start - 1;
    if (length < 128) {
      this.buffer[start] = length;
      return;
    }
    let lengthBytes = 1;
    for (let rest = length; rest > 0x7f; rest = Math.floor(rest / 128)) lengthBytes += 1;
    this.ensure(lengthBytes - 1);
    this.buffer.copyWithin(start + lengthBytes, start + 1, this.pos);
    this.pos += lengthBytes - 1;
    let at = start;
    let rest = length;
    while (rest > 0x7f) {
      this.buffer[at++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.buffer[at] = rest;
  }
}
