import { isAppError } from '@formcast/platform';
import type { DirectoryLookup } from './directory-lookup';

/** Whether the directory still has the device (a cached answer counts); any failure but its not_found is thrown. */
export async function deviceExists(directory: DirectoryLookup, orgId: number, deviceId: number, requestId: string): Promise<boolean> {
  try {
    await directory.device(orgId, String(deviceId), requestId);
    return true;
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return false;
    throw error;
  }
}
