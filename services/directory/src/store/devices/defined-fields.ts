import type { DeviceChange } from '../../domain/records';

/** The fields a change gives: a field absent and one given as undefined both leave it as it is. */
export function definedFields(change: DeviceChange): DeviceChange {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
}
