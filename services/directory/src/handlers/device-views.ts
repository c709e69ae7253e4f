import type { DeviceView } from '@formcast/contracts';
import { groupNameIndex, toDeviceView } from '../domain/views';
import type { Device } from '../domain/records';
import type { DirectoryStore } from '../store/directory-store';

/** Device views need the organization's group names. */
export async function deviceViews(store: DirectoryStore, orgId: number, devices: Device[]): Promise<DeviceView[]> {
  const names = groupNameIndex(await store.listGroups(orgId));
  return devices.map((device) => toDeviceView(device, names));
}

export async function deviceView(store: DirectoryStore, device: Device): Promise<DeviceView> {
  const [view] = await deviceViews(store, device.orgId, [device]);
  return view!;
}

/** A device path parameter names a device by identifier or, as later API versions allow, by id. */
export async function findDeviceByRef(store: DirectoryStore, orgId: number, ref: string): Promise<Device | null> {
  return /^[1-9][0-9]{0,14}$/.test(ref) ? store.getDevice(orgId, Number(ref)) : store.findDeviceByIdentifier(orgId, ref);
}
