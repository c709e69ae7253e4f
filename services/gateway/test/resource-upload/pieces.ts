/** A seeded generator (mulberry32): a failing split can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` bytes from the seeded generator. */
export function randomBytes(count: number, seed: number): Buffer {
  const random = seededRandom(seed);
  return Buffer.from(Array.from({ length: count }, () => Math.floor(random() * 256)));
}

/** `text` cut at random places into pieces of 0 to `longest` characters (empty pieces too). */
export function randomPieces(text: string, seed: number, longest = 7): string[] {
  const random = seededRandom(seed);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const length = Math.floor(random() * (longest + 1));
    pieces.push(text.slice(start, start + length));
    start += length;
  }
  return pieces;
}

/** The ways every body is fed in these tests: whole, one character at a time, and cut at random. */
export function splittings(text: string): Array<[string, string[]]> {
  return [
    ['whole', [text]],
    ['one UTF-16 unit at a time', Array.from({ length: text.length }, (_, i) => text[i]!)],
    ['random pieces (seed 1)', randomPieces(text, 1)],
    ['random pieces (seed 2)', randomPieces(text, 2, 64)],
  ];
}
