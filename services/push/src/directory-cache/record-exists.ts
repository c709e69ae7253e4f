import { nullIfNotFound } from '@formcast/platform';
import type { DirectoryLookup } from './directory-lookup';

/** Whether the directory still has the device (a cached answer counts); any failure but its not_found is thrown. */
export const deviceExists = async (directory: DirectoryLookup, orgId: number, deviceId: number, requestId: string): Promise<boolean> =>
  (await nullIfNotFound(directory.device(orgId, String(deviceId), requestId))) !== null;

/** Whether the directory still has the form (a cached answer counts); any failure but its not_found is thrown. */
export const formExists = async (directory: DirectoryLookup, orgId: number, formId: number, requestId: string): Promise<boolean> =>
  (await nullIfNotFound(directory.formById(orgId, formId, requestId))) !== null;
