import { isAppError } from '@formcast/platform';
import { checkPayload } from '../../src/domain/payload-rules';
import { checkValue } from '../../src/domain/value-rules';

/**
 * Each rule through `checkValue` (undefined: accepted; otherwise the reason), and each
 * reason as a push sees it: prefixed by the field it is about (`payload.<question>`).
 */

const jpegBytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const jpeg = jpegBytes.toString('base64');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');

const colours = { options: ['red', 'green', { value: 'blue', label: 'Blue' }] };

/** What a push of `value` for a question of this type (and definition) is told. */
function pushed(type: string, value: string, definition: Record<string, unknown> = {}): string | undefined {
  try {
    checkPayload({ answer: value }, [{ identifier: 'answer', type, ...definition }]);
    return undefined;
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
}

const cases: Array<{ type: string; definition?: Record<string, unknown>; valid: string[]; refused: Array<[string, string]> }> = [
  {
    type: 'integer',
    valid: ['42', '-7', '+0', ' 12 ', '123456789012345678'],
    refused: [
      ['4.2', 'must be a whole number'],
      ['1e3', 'must be a whole number'],
      ['', 'must be a whole number'],
      ['twelve', 'must be a whole number'],
      ['1234567890123456789', 'must be a whole number'],
    ],
  },
  {
    type: 'decimal',
    valid: ['3.14', '-.5', '10.', '1e-3', '+2E10', ' 7 '],
    refused: [
      ['1,5', 'must be a decimal number'],
      ['.', 'must be a decimal number'],
      ['e5', 'must be a decimal number'],
      ['NaN', 'must be a decimal number'],
      ['', 'must be a decimal number'],
    ],
  },
  {
    type: 'boolean',
    valid: ['true', 'FALSE', '1', '0', 'yes', 'No'],
    refused: [
      ['maybe', 'must be true or false'],
      ['2', 'must be true or false'],
      ['', 'must be true or false'],
    ],
  },
  {
    type: 'date',
    valid: ['2024-02-29', '1999-12-31', ' 2030-01-01 '],
    refused: [
      ['2023-02-29', 'must be a date, YYYY-MM-DD'],
      ['2024-13-01', 'must be a date, YYYY-MM-DD'],
      ['2024-04-31', 'must be a date, YYYY-MM-DD'],
      ['2024-1-01', 'must be a date, YYYY-MM-DD'],
      ['01/02/2024', 'must be a date, YYYY-MM-DD'],
    ],
  },
  {
    type: 'time',
    valid: ['09:30', '23:59:59', '00:00:00.123', '09:30Z', '09:30+02:00', '09:30:15-0500'],
    refused: [
      ['24:00', 'must be a time, HH:MM or HH:MM:SS'],
      ['9:30', 'must be a time, HH:MM or HH:MM:SS'],
      ['09:60', 'must be a time, HH:MM or HH:MM:SS'],
      ['09:30:60', 'must be a time, HH:MM or HH:MM:SS'],
      ['noon', 'must be a time, HH:MM or HH:MM:SS'],
    ],
  },
  {
    type: 'datetime',
    valid: ['2024-02-29T09:30:00', '2024-02-29 09:30', '2024-02-29T09:30:00.5Z', '2024-02-29T09:30:00+01:00'],
    refused: [
      ['2024-02-30T09:30', 'must be a date and time, YYYY-MM-DDTHH:MM:SS'],
      ['2024-02-29', 'must be a date and time, YYYY-MM-DDTHH:MM:SS'],
      ['2024-02-29T25:00', 'must be a date and time, YYYY-MM-DDTHH:MM:SS'],
      ['09:30 2024-02-29', 'must be a date and time, YYYY-MM-DDTHH:MM:SS'],
    ],
  },
  {
    type: 'select1',
    definition: colours,
    valid: ['red', 'blue'],
    refused: [
      ['purple', 'must be one of red, green, blue'],
      ['red green', 'must be one of red, green, blue'],
      ['Blue', 'must be one of red, green, blue'],
    ],
  },
  { type: 'select1', definition: {}, valid: ['anything at all'], refused: [] },
  {
    type: 'select1',
    definition: { choices: [{ value: 'a' }, 'b'] },
    valid: ['a', 'b'],
    refused: [['c', 'must be one of a, b']],
  },
  {
    type: 'select',
    definition: colours,
    valid: ['red', 'red blue', ' green  red ', ''],
    refused: [
      ['red purple', 'must be among red, green, blue'],
      ['red,blue', 'must be among red, green, blue'],
    ],
  },
  {
    type: 'select',
    definition: {},
    valid: ['any words at all'],
    refused: [['x'.repeat(100_001), 'must be at most 100000 characters']],
  },
  {
    type: 'image',
    valid: [jpeg, `${jpeg.slice(0, 8)}\n${jpeg.slice(8)}`],
    refused: [
      ['', 'must be Base64'],
      ['not base64!', 'must be Base64'],
      [jpeg.slice(0, -1), 'must be Base64'],
      [png, 'must be a JPEG image (JPEG only)'],
    ],
  },
  { type: 'sketch', valid: [jpeg], refused: [[png, 'must be a JPEG image (JPEG only)']] },
  { type: 'signature', valid: [jpeg], refused: [['%%%%', 'must be Base64']] },
  {
    type: 'location',
    valid: ['lat=51.5, long=-0.12', 'lat=-90, long=180', 'lat=0,long=0', ' lat=+45.25,  long=-179.9 '],
    refused: [
      ['51.5, -0.12', 'must be "lat=<latitude>, long=<longitude>"'],
      ['lat=51.5', 'must be "lat=<latitude>, long=<longitude>"'],
      ['lat=abc, long=1', 'must be "lat=<latitude>, long=<longitude>"'],
      ['lat=90.5, long=0', 'latitude must be between -90 and 90'],
      ['lat=0, long=-180.01', 'longitude must be between -180 and 180'],
    ],
  },
  {
    type: 'text',
    valid: ['', 'North yard', 'x'.repeat(100_000)],
    refused: [['x'.repeat(100_001), 'must be at most 100000 characters']],
  },
  // A type this service has no rule of its own for is text, with the same limit.
  { type: 'barcode', valid: ['0123456789'], refused: [['x'.repeat(100_001), 'must be at most 100000 characters']] },
];

describe.each(cases)('$type $definition', ({ type, definition = {}, valid, refused }) => {
  if (valid.length > 0) {
    it.each(valid.map((value) => [value.length > 40 ? `${value.slice(0, 20)}… (${value.length})` : value, value]))('accepts %j', (_label, value) => {
      expect(checkValue(type, value, definition)).toBeUndefined();
      expect(pushed(type, value, definition)).toBeUndefined();
    });
  }
  if (refused.length > 0) {
    it.each(refused.map(([value, reason]) => [value.length > 40 ? `${value.slice(0, 20)}… (${value.length})` : value, value, reason]))(
      'refuses %j, naming the field',
      (_label, value, reason) => {
        expect(checkValue(type, value, definition)).toBe(reason);
        expect(pushed(type, value, definition)).toBe(`payload.answer: ${reason}`);
      },
    );
  }
});

describe('images', () => {
  it('are at most 10 MiB once decoded', () => {
    // Base64 of just over 10 MiB, starting as a JPEG: refused for its size before it is decoded.
    const tooBig = jpeg + 'A'.repeat(Math.ceil((10 * 1024 * 1024) / 3) * 4);
    expect(checkValue('image', tooBig, {})).toBe('must be at most 10485760 bytes');
    const justFits = Buffer.concat([jpegBytes, Buffer.alloc(10 * 1024 * 1024 - jpegBytes.length - 2)]).toString('base64');
    expect(checkValue('image', justFits, {})).toBeUndefined();
  });
});
