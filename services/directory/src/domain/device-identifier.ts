import { AppError } from '@formcast/platform';

/** `<platform word>_<rest>`, e.g. `Android_3f2a…` or `iPhone_C347F8DA-…`; used in URL paths. */
const identifierPattern = /^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9._:-]+$/;

export function checkDeviceIdentifier(identifier: string): void {
  if (!identifierPattern.test(identifier)) {
    throw new AppError(
      'invalid',
      'identifier must begin with a platform word and an underscore (for example Android_… or iPhone_…) followed by letters, digits, ".", "_", ":" or "-"',
    );
  }
}
