import { randomFillSync } from 'node:crypto';

/**
 * Trace and span ids as lower-case hex, cut from a pool of random bytes refilled 4 KB at a
 * time: one native call an id, where the SDK's generator draws Math.random() for every 4
 * bytes and builds the string from them. An all-zero id (invalid) is drawn again.
 */
const pool = Buffer.allocUnsafeSlow(4096);
let used = pool.length;

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

const zeroTraceId = '0'.repeat(32);
const zeroSpanId = '0'.repeat(16);

export function newTraceId(): string {
  const id = randomHex(16);
  return id === zeroTraceId ? newTraceId() : id;
}

export function newSpanId(): string {
  const id = randomHex(8);
  return id === zeroSpanId ? newSpanId() : id;
}
