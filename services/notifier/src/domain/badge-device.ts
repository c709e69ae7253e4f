/** The device a badge belongs to. Badges (and send rights) are kept per organization and device. */
export interface BadgeDevice {
  orgId: number;
  deviceId: number;
}
