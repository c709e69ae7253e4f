import type { ResolvedDevice } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

/** Oneshots go to approved devices only: pushing to one waiting for approval is a bad request. */
export function requireApproved(device: ResolvedDevice, ref: string): ResolvedDevice {
  if (device.pendingApproval) throw new AppError('invalid', `Device ${ref} is waiting for approval`);
  return device;
}
