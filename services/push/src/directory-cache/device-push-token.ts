import { nullIfNotFound } from '@formcast/platform';
import type { DirectoryLookup } from './directory-lookup';

/** The device's push token as the directory knows it; null when the device no longer exists. */
export async function devicePushToken(directory: DirectoryLookup, orgId: number, deviceId: number, requestId: string): Promise<string | null> {
  return (await nullIfNotFound(directory.device(orgId, String(deviceId), requestId)))?.pushToken ?? null;
}
