import { z } from 'zod';

/** Commands served by the push service. */
export const pushCommands = {
  createOneshot: 'push.oneshot.create',
  updateOneshot: 'push.oneshot.update',
  listDeviceOneshots: 'push.oneshot.list_for_device',
  listOrganizationOneshots: 'push.oneshot.list_for_organization',
  revokeOneshot: 'push.oneshot.revoke',
  revokeAllOneshots: 'push.oneshot.revoke_all',
  deviceListOneshots: 'push.device.list_oneshots',
  deviceGetOneshot: 'push.device.get_oneshot',
  deviceSubmitOneshot: 'push.device.submit_oneshot',
} as const;

const id = z.number().int().positive();
/** A device path parameter: identifier or numeric id. */
const deviceRef = z.string().min(1).max(255);
const description = z.string().max(255, 'must be at most 255 characters');
/** Required, but may be `{}`; checked in depth against the template's questions by the push domain. */
const payload = z.custom<unknown>((v) => v !== undefined, { message: 'is required (it may be {})' });

/** Field names as the API spells them, so messages name what the integrator sent. */
export const createOneshotPayload = z.object({
  deviceRef,
  form_namespace: z.string({ error: 'is required' }).min(1, 'is required').max(1000),
  form_name: z.string().min(1).max(255).optional(),
  form_description: description.optional(),
  payload,
  /** XML bodies cannot tell one repetition of a group from a subform; be lenient there. */
  fromXml: z.boolean().default(false),
});

export const updateOneshotPayload = z.object({
  deviceRef,
  oneshotId: id,
  form_name: z.string().min(1).max(255).optional(),
  form_description: description.optional(),
  payload,
});

export const deviceOneshotsPayload = z.object({ deviceRef });
export const deviceOneshotPayload = z.object({ deviceRef, oneshotId: id });
/** The largest `limit` a `listOrganizationOneshots` command may give. */
export const organizationOneshotsMaxLimit = 1000;
/**
 * The `limit` the gateway gives: pages of 250 kept the embedded process's peak RSS ~25 MB
 * lower than pages of 1000 while listing 10,000, at the same CPU (issue 7, S3).
 */
export const organizationOneshotsPageLimit = 250;
/**
 * The organization listing, one page at a time: the outstanding oneshots with an id above
 * `afterId`, ascending, at most `limit`. A page shorter than `limit` is the last. Without
 * `limit`, every one (a long list then travels as one reply).
 */
export const organizationOneshotsPayload = z.object({
  afterId: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(organizationOneshotsMaxLimit).optional(),
});

/** Device-side commands act for the authenticated device (its id comes from its secret). */
export const deviceSideListPayload = z.object({ deviceId: id });
export const deviceSideGetPayload = z.object({ deviceId: id, oneshotId: id });
export const deviceSideSubmitPayload = z.object({ deviceId: id, oneshotId: id, answers: z.unknown() });

/** `oneshot_list` of spec 2.7. */
export interface OneshotCreatedView {
  id: number;
  namespace: string;
  name: string;
}

/** An outstanding pushed form, spec 2.8 (snake_case; XML dasherizes). */
export interface OutstandingOneshotView {
  description: string;
  device_id: number;
  id: number;
  name: string;
  namespace: string;
  organization_id: number;
}

/** What a device sees of its own oneshot: enough to open the form pre-filled. */
export interface DeviceOneshotView {
  id: number;
  name: string;
  description: string;
  namespace: string;
  form_namespace: string;
  payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface SubmissionView {
  oneshot_id: number;
  submitted_at: string;
}
