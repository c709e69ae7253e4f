/**
 * The shapes of the public API's JSON answers the console reads (see README.md): the views
 * of @formcast/contracts the gateway renders, under the console's names. `import type` only:
 * erased from the build, so Vite bundles nothing of contracts (nor zod).
 */
import type {
  DeliveryAttemptView,
  DeliveryListView,
  DeliveryView,
  DestinationView,
  DeviceBadgeView,
  DeviceV2View,
  DispatchView,
  FormListItemView,
  ResourceListItemView,
  ResourceTableView,
  ResourceView,
  SubmissionDatabasePageView,
  SubmissionRecordView,
} from '@formcast/contracts';

/** A device in `GET /api/v2/organizations/<org>/devices.json` (`{"devices":[…]}`). */
export type Device = DeviceV2View;

/** `GET /clients/<device>/badge.json`: the badge and whether the device has a push token. */
export type DeviceBadge = DeviceBadgeView;

/** A form in `GET /organizations/<org>/forms.json` (`{"forms":[…]}`). */
export type FormSummary = FormListItemView;

/** A v3 dispatch: `{"dispatch":…}` of a create, `{"dispatches":[…]}` of a page. */
export type Dispatch = DispatchView;

/** `GET /api/forms/<form>/device_magic_database.json`, answered as push gives it. */
export type SubmissionPage = SubmissionDatabasePageView;
export type SubmissionRecord = SubmissionRecordView;

/** A destination in `GET /api/forms/<form>/destinations.json` (`{"destinations":[…]}`). */
export type Destination = DestinationView;

export type DeliveryAttempt = DeliveryAttemptView;
export type Delivery = DeliveryView;

/** `GET …/destinations/<id>/deliveries.json`: delivery's page, with the gateway's `current_count` beside it. */
export type DeliveryPage = DeliveryListView & { current_count: number };

/** A resource in `GET /api/v3/resources.json` (`{"resources":[…]}`). */
export type ResourceSummary = ResourceListItemView;

export type SpreadsheetTable = ResourceTableView;

/** `GET /api/v3/resources/<id>/describe.json` (`{"resource":…}`): the resource, with the v3 `status` (always `Ready`). */
export type ResourceDetail = ResourceView & { status: string };

// A form's definition is the author's document, kept as sent: contracts types it as unknown.
// These are the parts of it the console reads.

export interface Question {
  identifier: string;
  title?: string;
  type: string;
  options?: Array<string | { value?: string; label?: string; title?: string }>;
  children?: Question[];
}

/** `GET /organizations/<org>/forms/<id>.json`. */
export interface FormDefinition {
  title: string;
  namespace: string;
  children?: Question[];
}
