import { isAppError } from '@formcast/platform';
import type { DirectoryLookup } from './directory-lookup';

/** Whether `lookup` finds the record: false on the directory's not_found; any other failure is thrown. */
async function found(lookup: () => Promise<unknown>): Promise<boolean> {
  try {
    await lookup();
    return true;
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return false;
    throw error;
  }
}

/** Whether the directory still has the device (a cached answer counts). */
export const deviceExists = (directory: DirectoryLookup, orgId: number, deviceId: number, requestId: string): Promise<boolean> =>
  found(() => directory.device(orgId, String(deviceId), requestId));

/** Whether the directory still has the form (a cached answer counts). */
export const formExists = (directory: DirectoryLookup, orgId: number, formId: number, requestId: string): Promise<boolean> =>
  found(() => directory.formById(orgId, formId, requestId));
