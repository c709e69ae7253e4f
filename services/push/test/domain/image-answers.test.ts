import { checkAnswers, checkPayload } from '../../src/domain/payload-rules';
import { isImageReference, namedImages } from '../../src/domain/image-answers';

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]).toString('base64');
const questions = [
  { identifier: 'photo', type: 'image' },
  { identifier: 'note', type: 'text' },
  { identifier: 'signed', type: 'signature' },
  { identifier: 'visit', type: 'subform', children: [{ identifier: 'sketch', type: 'sketch' }] },
  { identifier: 'rooms', type: 'group', children: [{ identifier: 'snap', type: 'image' }] },
];

describe('image answers named by identifier (v3/submission_image.md)', () => {
  it.each([
    ['1234', true],
    ['photo_1.jpg', true],
    ['0f8fad5b-d9cb-469f-a165-70867728950e', true],
    [jpeg, false],
    ['bm90IGEganBlZw==', false],
    ['has space', false],
    ['a/b', false],
    ['', false],
  ])('%j is a reference: %s', (value, expected) => {
    expect(isImageReference(value)).toBe(expected);
  });

  it('lists the identifiers the answers name, in subforms and repetitions too, once each, and not inline JPEGs or text', () => {
    const answers = {
      photo: 'front.jpg',
      note: 'back.jpg',
      signed: jpeg,
      visit: { sketch: 'plan-1' },
      rooms: [{ snap: 'room-1' }, { snap: 'front.jpg' }, { snap: '' }],
    };
    expect(namedImages(answers, questions)).toEqual(['front.jpg', 'plan-1', 'room-1']);
  });

  it("takes a reference in a submission's answers, never in a pushed payload, and still refuses Base64 of no JPEG", () => {
    expect(checkAnswers({ photo: '1234' }, questions)).toEqual({ photo: '1234' });
    expect(() => checkPayload({ photo: '1234' }, questions)).toThrow(/payload\.photo: must be a JPEG/);
    expect(() => checkAnswers({ photo: 'bm90IGEganBlZw==' }, questions)).toThrow(/answers\.photo: must be a JPEG image/);
  });
});
