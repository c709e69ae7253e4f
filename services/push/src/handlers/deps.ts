import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import type { PushStore } from '../store/push-store';

export interface PushDeps {
  store: PushStore;
  directory: DirectoryLookup;
  /** Dispatches outstanding on one device at once (PUSH_MAX_OUTSTANDING_PER_DEVICE); one more is 422. Default 2000. */
  maxOutstandingPerDevice?: number;
  /** Oneshots destroy_all revokes in one transaction (500); tests make it small. */
  revokeChunk?: number;
  /** Called after every write so its events go out at once. */
  eventsWritten: () => void;
  /**
   * The time, for what compares with a dispatch's scheduled time (create, update, release);
   * the system clock unless given. Tests give their own to release scheduled dispatches.
   */
  clock?: () => Date;
}

/** The time as the stores keep it: `toISOString()`'s UTC form. */
export function nowOf(deps: Pick<PushDeps, 'clock'>): string {
  return (deps.clock?.() ?? new Date()).toISOString();
}
