/** Spec section 3: outstanding from creation until completed on the device or revoked. */
export type OneshotState = 'outstanding' | 'revoked' | 'completed';

/** The push service's one oneshot record: the store's and MongoDB's types derive from it. */
export interface Oneshot {
  id: number;
  orgId: number;
  deviceId: number;
  deviceIdentifier: string;
  formId: number;
  /** The template's namespace. */
  templateNamespace: string;
  /** `<template namespace>?<uuid>`: this copy's own namespace. */
  namespace: string;
  name: string;
  description: string;
  payload: Record<string, unknown>;
  state: OneshotState;
  createdAt: string;
  updatedAt: string;
  /** The template's version when it was dispatched: "1.00"… ('' for oneshots kept from before versions were recorded). */
  formVersion: string;
  /** When its device is to receive it (UTC ISO 8601); null: at once. */
  scheduledAt: string | null;
  /**
   * When it reached its device: its `created` event was written then. null: scheduled and
   * not yet released; until then the device, its badge and the legacy listings never see it.
   */
  releasedAt: string | null;
  /** `lat=…, long=…` as given. */
  location: string | null;
  address: string | null;
  /** Metres. */
  geofenceRadius: number | null;
}

/** A oneshot as created, before the store gives it its id. */
export type NewOneshot = Omit<Oneshot, 'id'>;

/** What a push asks for: a new oneshot but its state and times. */
export type OneshotRequest = Omit<NewOneshot, 'state' | 'createdAt' | 'updatedAt' | 'releasedAt'>;

/** A dispatch as the v3 listings show it: all but its payload, which may be megabytes of images. */
export type DispatchSummary = Omit<Oneshot, 'payload'>;

/** A page of a v3 listing: the dispatches of one page and how many there are in all. */
export interface DispatchPage {
  total: number;
  dispatches: DispatchSummary[];
}

/** What the organization listing (spec 2.8) shows of an outstanding oneshot. */
export type OneshotSummary = Pick<Oneshot, 'id' | 'orgId' | 'deviceId' | 'name' | 'description' | 'namespace'>;

/**
 * A form as a device filled it in: any form of its groups, or a oneshot pushed to it (which
 * it then completes). Device and form as they were when it was received.
 */
export interface Submission {
  id: number;
  orgId: number;
  deviceId: number;
  deviceIdentifier: string;
  /** The device's owner ('' for submissions kept from before owners were recorded). */
  deviceOwner: string;
  formId: number;
  /** The template's namespace. */
  formNamespace: string;
  formName: string;
  /** "1.00", "1.01"… ('' for submissions kept from before versions were recorded). */
  formVersion: string;
  /** The oneshot it completed; null: a form submitted without one. */
  oneshotId: number | null;
  /** The device's own id for it; the same one again (same device) is the same submission. */
  clientSubmissionId: string | null;
  /** Question identifier -> value: text, an object for a subform, an array of objects for a group. */
  answers: Record<string, unknown>;
  /** When the device says the user submitted it. */
  submittedAt: string;
  /** When it was stored. */
  receivedAt: string;
}

/** A submission as accepted, before the store gives it its id. */
export type NewSubmission = Omit<Submission, 'id'>;
