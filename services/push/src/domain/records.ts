/** Spec section 3: outstanding from creation until completed on the device or revoked. */
export type OneshotState = 'outstanding' | 'revoked' | 'completed';

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
}

/** What the organization listing (spec 2.8) shows of an outstanding oneshot. */
export type OneshotSummary = Pick<Oneshot, 'id' | 'orgId' | 'deviceId' | 'name' | 'description' | 'namespace'>;

export interface Submission {
  oneshotId: number;
  orgId: number;
  deviceId: number;
  answers: Record<string, unknown>;
  submittedAt: string;
}
