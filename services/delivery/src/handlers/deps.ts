import type { Logger } from '@formcast/platform';
import type { FormLookup } from '../directory/form-lookup';
import type { DeliveryStore } from '../store';

export interface DeliveryDeps {
  store: DeliveryStore;
  forms: FormLookup;
  /** Why a destination may not send to `uri` (see sender/address-guard.ts), or null. */
  uriRefusal: (uri: string) => Promise<string | null>;
  /** Whether the deployment has its own SMTP server (DELIVERY_SMTP_URL) for email destinations naming none. */
  defaultSmtp: boolean;
  /** Called when deliveries may have come due, so they go out at once. */
  deliveriesDue: () => void;
  /** Destinations one form may have (DELIVERY_MAX_DESTINATIONS_PER_FORM); one more is 422. Default 25. */
  maxDestinationsPerForm?: number;
  /** Epoch ms (tests move it). */
  now: () => number;
  logger?: Logger;
}
