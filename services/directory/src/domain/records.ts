/** What the directory keeps. Every record carries its organization id. */

export interface Organization {
  id: number;
  name: string;
  enrollmentCode: string;
  createdAt: string;
}

export interface ApiToken {
  id: number;
  orgId: number;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface Group {
  id: number;
  orgId: number;
  name: string;
  /** The organization's `Default` group: never deleted, home of forms without a group. */
  isDefault: boolean;
  /** Ascending. */
  formIds: number[];
  /** Ascending. */
  deviceIds: number[];
}

export interface Device {
  id: number;
  orgId: number;
  identifier: string;
  owner: string;
  description: string;
  pendingApproval: boolean;
  pushToken: string | null;
  /** Ids of the groups it is in, ascending. */
  groupIds: number[];
  createdAt: string;
}

/** A question of a form definition; `subform` and `group` (repeating) hold children. */
export interface Question {
  identifier: string;
  title?: string;
  type: string;
  children?: Question[];
  [other: string]: unknown;
}

export interface FormDefinition {
  type: 'root';
  title: string;
  namespace?: string;
  children: Question[];
  [other: string]: unknown;
}

export interface Form {
  id: number;
  orgId: number;
  name: string;
  namespace: string;
  description: string;
  /** Starts at 1, +1 on every new definition. */
  revision: number;
  groupId: number;
  definition: FormDefinition;
  createdAt: string;
  updatedAt: string;
}
