import { AppError } from '@formcast/platform';
import { parseDeviceRef } from '../../domain/device-rules';
import type { Device } from '../../domain/records';
import type { DeviceStore } from './device-store';

/** The device a path parameter names (see parseDeviceRef); none: 'not_found'. */
export async function findDeviceByRef(devices: DeviceStore, orgId: number, ref: string): Promise<Device> {
  const key = parseDeviceRef(ref);
  const device = await ('id' in key ? devices.get(orgId, key.id) : devices.findByIdentifier(orgId, key.identifier));
  if (!device) throw new AppError('not_found', `Device ${ref} does not exist`);
  return device;
}
