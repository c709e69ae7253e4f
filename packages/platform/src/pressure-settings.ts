import { z } from 'zod';

/**
 * The limits that keep one organization, device or client from taking what others need
 * (issue 25): caps on stored work, rate limits, load shedding and the budgets of hostile
 * uploads. Part of `settingsSchema`; each is listed in README "Limits" with the answer past it.
 */
export const pressureSettings = {
  /** DELIVERY_MAX_DESTINATIONS_PER_FORM: destinations one form may have; one more is 422. */
  DELIVERY_MAX_DESTINATIONS_PER_FORM: z.coerce.number().int().min(1).max(10000).default(25),
};
