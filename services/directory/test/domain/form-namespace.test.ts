import { generateFormNamespace } from '../../src/domain/form-namespace';

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

describe('generateFormNamespace', () => {
  it('is <base>/xforms/<uuid>', () => {
    expect(generateFormNamespace('http://formcast.local')).toMatch(new RegExp(`^http://formcast\\.local/xforms/${uuid}$`));
  });

  it('drops the trailing slashes of the base', () => {
    expect(generateFormNamespace('https://forms.example.com/base//')).toMatch(
      new RegExp(`^https://forms\\.example\\.com/base/xforms/${uuid}$`),
    );
  });

  it('is another namespace every time', () => {
    expect(generateFormNamespace('http://x')).not.toBe(generateFormNamespace('http://x'));
  });
});
