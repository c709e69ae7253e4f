/** The shapes of the public API's JSON answers the console reads (see README.md). */

export interface Device {
  id: number;
  identifier: string;
  owner: string;
  description: string;
  pending_approval: boolean;
  groups: Array<{ name: string }>;
  os_version: string | null;
  app_version: string | null;
}

/** `GET /clients/<device>/badge.json`. */
export interface DeviceBadge {
  badge: number;
  /** Whether the device has a push token; absent from a gateway older than the field. */
  push_token_present?: boolean;
}

export interface FormSummary {
  id: number;
  name: string;
  namespace: string;
  version: string;
  description: string;
  group: string;
}

export interface Question {
  identifier: string;
  title?: string;
  type: string;
  options?: Array<string | { value?: string; label?: string; title?: string }>;
  children?: Question[];
}

export interface FormDefinition {
  title: string;
  namespace: string;
  children?: Question[];
}

export interface Dispatch {
  id: number;
  name: string;
  device_id: number;
  description: string;
  created_at: string;
  scheduled_at: string | null;
  parent_form_id: number;
}

export interface SubmissionRecord {
  form: { id: number; name: string; version: string };
  metadata: Record<string, { value: unknown; type: string }>;
  answers: Record<string, unknown>;
}

export interface SubmissionPage {
  per_page: number;
  current_page: number;
  total_pages: number;
  total_count: number;
  submissions: SubmissionRecord[];
}

export interface Destination {
  id: number;
  description: string;
  active: boolean;
  format_type: string;
  transport_type: string;
  deactivated_reason: string | null;
}

export interface DeliveryAttempt {
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

export interface Delivery {
  id: number;
  submission_id: number;
  webhook_id: string;
  status: string;
  next_attempt_at: string | null;
  created_at: string;
  attempts: DeliveryAttempt[];
}

export interface DeliveryPage {
  total_count: number;
  deliveries: Delivery[];
}

export interface ResourceSummary {
  id: number;
  original_filename: string;
  version: number;
  description: string;
}

export interface SpreadsheetTable {
  table_name: string;
  original_sheet_name: string;
  columns: Array<{ column_name: string; column_number: number }>;
}

export interface ResourceDetail extends ResourceSummary {
  identifier: string;
  generated_content_summary?: SpreadsheetTable[];
  status?: string;
}
