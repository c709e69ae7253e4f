import { z } from 'zod';

/** Commands served by the notifier service (routing key = the name). */
export const notifierCommands = {
  /** A device's badge: its number of outstanding oneshots, as the notifier counts them. */
  getBadge: 'notifier.badge.get',
} as const;

/** The device's numeric id (resolve an identifier with `directory.device.find` first). */
export const getBadgePayload = z.object({ deviceId: z.number().int().positive() });

export interface BadgeView {
  badge: number;
}

/**
 * The badge endpoint's JSON answer: the notifier's badge, and whether the directory knows a
 * push token for the device (a boolean only: the token never leaves the directory for this).
 */
export interface DeviceBadgeView extends BadgeView {
  push_token_present: boolean;
}
