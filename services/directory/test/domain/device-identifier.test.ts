import { isAppError } from '@formcast/platform';
import { checkDeviceIdentifier } from '../../src/domain/device-identifier';

function verdict(identifier: string): string {
  try {
    checkDeviceIdentifier(identifier);
    return 'accepted';
  } catch (error) {
    return isAppError(error) ? error.code : 'other error';
  }
}

describe('checkDeviceIdentifier', () => {
  it('accepts a platform word, an underscore and the rest', () => {
    for (const identifier of ['Android_3f2a9c', 'iPhone_C347F8DA-12AB-4C5D', 'X1_a.b:c-d_e', 'web_1']) {
      expect(verdict(identifier)).toBe('accepted');
    }
  });

  it('refuses anything else, as invalid', () => {
    for (const identifier of ['', 'Android', 'Android_', '_abc', '1Phone_abc', 'And roid_x', 'Android_a/b', 'Android_a b', 'Android_é']) {
      expect(verdict(identifier)).toBe('invalid');
    }
  });

  it('says what an identifier looks like', () => {
    expect(() => checkDeviceIdentifier('nope')).toThrow(/platform word and an underscore/);
  });
});
