import type { Device, DeviceChange, NewDevice } from '../../domain/records';

/**
 * Devices (see `DirectoryStore` for the errors every part throws). An identifier is
 * enrolled once in an organization (another organization may have it too), a secret hash
 * belongs to one device: 'conflict'.
 */
export interface DeviceStore {
  /** Unknown organization: 'not_found'; groups the organization lacks: 'invalid'. */
  enroll(device: NewDevice): Promise<Device>;
  /** Ascending by id. */
  list(orgId: number, filter?: { approvedOnly?: boolean }): Promise<Device[]>;
  get(orgId: number, deviceId: number): Promise<Device | null>;
  findByIdentifier(orgId: number, identifier: string): Promise<Device | null>;
  findBySecretHash(secretHash: string): Promise<Device | null>;
  /** Changes the fields given; `groupIds` replaces its groups (ids the organization lacks: 'invalid'). */
  update(orgId: number, deviceId: number, change: DeviceChange): Promise<Device>;
  /**
   * Clears the device's push token only while it is still `pushToken`, in one atomic step:
   * a newer token the device sent meanwhile is kept. The device as changed, or null when
   * it is unknown or its token is another.
   */
  clearPushTokenIf(orgId: number, deviceId: number, pushToken: string): Promise<Device | null>;
  /** Deletes it and its memberships; answers the device as it was. */
  delete(orgId: number, deviceId: number): Promise<Device>;
}
