import type { Envelope, ResolvedDevice } from '@formcast/contracts';
import { AppError, requireOrgId } from '@formcast/platform';
import type { PushDeps } from './deps';

/** The device named by a `/clients/<device>/…` path: of this organization, and approved. */
export async function approvedDevice(deps: PushDeps, command: Envelope, ref: string): Promise<ResolvedDevice> {
  const device = await deps.directory.device(requireOrgId(command), ref, command.requestId);
  if (device.pendingApproval) throw new AppError('invalid', `Device ${ref} is waiting for approval`);
  return device;
}
