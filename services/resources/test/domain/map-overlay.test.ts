import { isAppError } from '@formcast/platform';
import { checkMapOverlay, looksLikeMapOverlay } from '../../src/domain/map-overlay';
import { jpegImage, mapOverlay, pdfDocument } from '../../../../test/fixtures/resource-files';

const overlay = (changes: Record<string, unknown> = {}) => JSON.parse(mapOverlay(changes).toString('utf8')) as unknown;

function invalidMessage(value: unknown): string {
  try {
    checkMapOverlay(value);
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('the overlay was accepted');
}

describe('map overlay rules', () => {
  it('accepts a valid overlay, with a PNG or a JPEG image, Base64 in lines or not', () => {
    expect(() => checkMapOverlay(overlay())).not.toThrow();
    expect(() => checkMapOverlay(overlay({ image: jpegImage().toString('base64') }))).not.toThrow();
    const wrapped = jpegImage().toString('base64').replace(/(.{20})/g, '$1\n');
    expect(() => checkMapOverlay(overlay({ image: wrapped }))).not.toThrow();
    expect(() => checkMapOverlay(overlay({ north: '90', south: '-90', east: '180', west: '-180', opacity: '0', rotation: '-45' }))).not.toThrow();
    expect(() => checkMapOverlay(overlay({ opacity: '1.0', rotation: '.5', north: '+60' }))).not.toThrow();
  });

  it.each([
    ['north missing', { north: undefined }, /north: is required/],
    ['image missing', { image: undefined }, /image: is required/],
    ['north as a number', { north: 51.5 }, /north: must be a string holding a decimal number/],
    ['east in exponent form', { east: '1e2' }, /east: must be a string holding a decimal number/],
    ['rotation as words', { rotation: 'ninety' }, /rotation: must be a string/],
    ['opacity with spaces', { opacity: ' 0.5' }, /opacity: must be a string/],
    ['north beyond 90', { north: '90.5' }, /north: must be a latitude within \[-90, 90\]/],
    ['south below -90', { south: '-91' }, /south: must be a latitude/],
    ['east beyond 180', { east: '180.01' }, /east: must be a longitude within \[-180, 180\]/],
    ['west below -180', { west: '-200' }, /west: must be a longitude/],
    ['north below south', { north: '10', south: '20' }, /north: must be greater than south/],
    ['north equal to south', { north: '20', south: '20' }, /north: must be greater than south/],
    ['opacity above 1', { opacity: '1.5' }, /opacity: must be within \[0, 1\]/],
    ['opacity below 0', { opacity: '-0.1' }, /opacity: must be within \[0, 1\]/],
    ['image not Base64', { image: 'not base64!' }, /image: must be Base64 of a PNG or JPEG/],
    ['image of a PDF', { image: pdfDocument().toString('base64') }, /image: must be Base64 of a PNG or JPEG/],
    ['image as a number', { image: 7 }, /image: must be a string/],
  ])('refuses %s with 400 naming the field', (_name, changes, message) => {
    expect(invalidMessage(overlay(changes))).toMatch(message);
  });

  it('refuses an overlay that is not an object', () => {
    expect(invalidMessage([1, 2])).toMatch(/must be a JSON object/);
  });

  it('counts JSON with a bounding-box field as an overlay, and other JSON not', () => {
    expect(looksLikeMapOverlay({ north: '1' })).toBe(true);
    expect(looksLikeMapOverlay({ west: '1', anything: true })).toBe(true);
    expect(looksLikeMapOverlay({ options: ['north'] })).toBe(false);
    expect(looksLikeMapOverlay(['north'])).toBe(false);
    expect(looksLikeMapOverlay('north')).toBe(false);
  });
});
