import { base64DecodedLength, isBase64 } from '@formcast/contracts';

describe('Base64 checks shared by the gateway and the service', () => {
  it.each(['', 'QQ==', 'QUI=', 'QUJD', 'QUJDRA', 'QUJDREU', '+/+/', Buffer.from([0xfb, 0xff, 0xbf]).toString('base64')])(
    'accepts %j',
    (text) => {
      expect(isBase64(text)).toBe(true);
      expect(base64DecodedLength(text)).toBe(Buffer.from(text, 'base64').length);
    },
  );

  it.each(['Q', 'QUJDR', 'QQ=', 'Q===', 'QQ==QQ==', 'QU JD', 'QUJD\n', '-_-_', 'QUJD!', 'é123'])('refuses %j', (text) => {
    expect(isBase64(text)).toBe(false);
  });
});
