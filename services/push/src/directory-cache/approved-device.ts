import type { Envelope, ResolvedDevice } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { requireApproved } from '../domain/device-approval';
import type { DirectoryLookup } from './directory-lookup';

/** The device named by a `/clients/<device>/…` path: of this organization, and approved. */
export async function approvedDevice(directory: DirectoryLookup, command: Envelope, ref: string): Promise<ResolvedDevice> {
  return requireApproved(await directory.device(requireOrgId(command), ref, command.requestId), ref);
}
