import { base64DecodedLength } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { Base64Decoder, exactSizeGraceBytes } from '../../src/http/resource-upload/base64-decoder';
import { decodedAsBefore } from './decoded';
import { randomBytes, seededRandom, splittings } from './pieces';

function decode(pieces: string[], options: { spaceIsPlus: boolean; maxBytes?: number; sizeHint?: number }): Base64Decoder {
  const decoder = new Base64Decoder({ maxBytes: options.maxBytes ?? 1 << 20, sizeHint: options.sizeHint, spaceIsPlus: options.spaceIsPlus });
  for (const piece of pieces) decoder.write(piece);
  decoder.end();
  return decoder;
}

function outcome(decoder: Base64Decoder): Buffer | 'invalid' {
  return decoder.valid ? decoder.bytes() : 'invalid';
}

const bytes = randomBytes;

const examples = [
  '',
  'QQ',
  'QQ==',
  'QQ=',
  'QUI',
  'QUI=',
  'QUJD',
  'QUJDRA',
  'QUJDRA==',
  'QUJDRA===',
  'QUJDRA=',
  'QUJDRA=A',
  'QUJDR',
  'QUJDR===',
  'Q',
  '=',
  '==',
  '====',
  'QQ==QQ==',
  'QQ==\r\n',
  'QQ\r\n==',
  'Q Q = =',
  'QU JD',
  'QUJD\t\r\nRA==',
  ' ',
  '-_-_',
  'not*base64!',
  '%%%',
  'QUJD\f',
  'QUJD\u00a0',
  'QUJDé',
  'QUJD😀',
  '++//',
  '  //',
  bytes(1000, 1).toString('base64'),
  bytes(1001, 2).toString('base64').replace(/.{76}/g, '$&\r\n'),
  bytes(1002, 3).toString('base64').replace(/.{64}/g, '$&\n'),
  bytes(999, 4).toString('base64').replace(/=+$/, ''),
  bytes(300, 5).toString('base64').replace(/\+/g, ' '),
];

describe('Base64Decoder', () => {
  it.each(examples.map((text) => [JSON.stringify(text).slice(0, 40), text]))(
    'decodes %s as the route did, in JSON and form bodies, however it is cut',
    (_name, text) => {
      for (const spaceIsPlus of [false, true]) {
        const expected = decodedAsBefore(text, spaceIsPlus);
        for (const [, pieces] of splittings(text)) {
          const decoder = decode(pieces, { spaceIsPlus });
          expect(outcome(decoder)).toEqual(expected);
          if (expected !== 'invalid') expect(decoder.size).toBe(expected.length);
        }
      }
    },
  );

  it('agrees with the route on random short texts', () => {
    const random = seededRandom(42);
    const alphabet = 'AQw+/= \n\t%-';
    const disagreements: unknown[] = [];
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: Math.floor(random() * 11) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      for (const spaceIsPlus of [false, true]) {
        const expected = decodedAsBefore(text, spaceIsPlus);
        const actual = outcome(decode([...text], { spaceIsPlus }));
        const agree = expected === 'invalid' || actual === 'invalid' ? expected === actual : expected.equals(actual);
        if (!agree) disagreements.push({ text, spaceIsPlus, expected, actual });
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('agrees with the route on random long texts: mostly Base64, now and then something else', () => {
    const random = seededRandom(43);
    const plain = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const rare = '= \n\t\r*-é';
    const disagreements: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      const length = Math.floor(random() * 400);
      const oddsOfRare = random() < 0.5 ? 0 : 0.01;
      const text = Array.from({ length }, () => (random() < oddsOfRare ? rare[Math.floor(random() * rare.length)] : plain[Math.floor(random() * 64)])).join('');
      const padded = random() < 0.3 ? text + '='.repeat(Math.floor(random() * 3)) : text;
      for (const spaceIsPlus of [false, true]) {
        const expected = decodedAsBefore(padded, spaceIsPlus);
        const pieces = random() < 0.5 ? [padded] : [padded.slice(0, i % 97), padded.slice(i % 97, 250), padded.slice(250)];
        const actual = outcome(decode(pieces, { spaceIsPlus }));
        const agree = expected === 'invalid' || actual === 'invalid' ? expected === actual : expected.equals(actual);
        if (!agree) disagreements.push({ padded, spaceIsPlus, expected, actual });
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('counts the decoded size as base64DecodedLength does', () => {
    for (const text of examples.filter((t) => decodedAsBefore(t, false) !== 'invalid')) {
      expect(decode([text], { spaceIsPlus: false }).size).toBe(base64DecodedLength(text.replace(/[\r\n\t ]/g, '')));
    }
  });

  it('gives the same bytes whatever buffer it starts with: exact, too small, empty, or none', () => {
    const data = bytes(200_000, 6);
    const text = data.toString('base64');
    for (const sizeHint of [undefined, 0, 1, 3, 1000, data.length, Math.floor((text.length * 3) / 4)]) {
      const decoder = decode([text], { spaceIsPlus: false, sizeHint });
      expect(decoder.bytes().equals(data)).toBe(true);
      expect(decoder.bytes().length).toBe(data.length);
    }
  });

  it('keeps a file of exactly the limit, and counts one past it without keeping it', () => {
    const max = 1000;
    const atLimit = decode([bytes(max, 7).toString('base64')], { spaceIsPlus: false, maxBytes: max });
    expect(atLimit.size).toBe(max);
    expect(atLimit.bytes().equals(bytes(max, 7))).toBe(true);

    const over = decode([bytes(max + 1, 8).toString('base64')], { spaceIsPlus: false, maxBytes: max });
    expect(over.valid).toBe(true);
    expect(over.size).toBe(max + 1);
    expect(() => over.bytes()).toThrow();

    // Over it, then text that would fit again on its own: still too large, nothing kept.
    const crossing = decode([bytes(max - 2, 9).toString('base64').replace(/=+$/, ''), 'QUJD', 'QUJD'.repeat(100)], { spaceIsPlus: false, maxBytes: max });
    expect(crossing.size).toBeGreaterThan(max);
    expect(() => crossing.bytes()).toThrow();
  });

  it('counts a file up to the grace past the limit, and refuses one beyond it while it is written', () => {
    const max = 10;
    const withinGrace = decode([bytes(max + exactSizeGraceBytes, 9).toString('base64')], { spaceIsPlus: false, maxBytes: max });
    expect(withinGrace.size).toBe(max + exactSizeGraceBytes);

    // Fed one character at a time: the one that takes the size past the grace is refused.
    const decoder = new Base64Decoder({ maxBytes: max, spaceIsPlus: false });
    let accepted = 0;
    let error: unknown;
    try {
      for (;;) {
        decoder.write('A');
        accepted++;
      }
    } catch (e) {
      error = e;
    }
    expect(Math.floor((accepted * 3) / 4)).toBe(max + exactSizeGraceBytes);
    expect(Math.floor(((accepted + 1) * 3) / 4)).toBe(max + exactSizeGraceBytes + 1);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('too_large');
    expect((error as AppError).message).toBe(`file.file_data: the file is over ${max} bytes; the largest accepted is ${max} bytes`);
  });

  it('never refuses invalid text for its size: it is reported as invalid', () => {
    const decoder = new Base64Decoder({ maxBytes: 3, spaceIsPlus: false });
    decoder.write('*');
    decoder.write('A'.repeat(4 * exactSizeGraceBytes));
    decoder.end();
    expect(decoder.valid).toBe(false);
  });

  it('hands over no bytes before the end', () => {
    const decoder = new Base64Decoder({ maxBytes: 100, spaceIsPlus: false });
    decoder.write('QUJD');
    expect(() => decoder.bytes()).toThrow();
    decoder.end();
    expect(decoder.bytes().toString()).toBe('ABC');
  });
});
