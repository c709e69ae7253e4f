import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import type { PushStore } from '../store/push-store';

export interface PushDeps {
  store: PushStore;
  directory: DirectoryLookup;
  /** Called after every write so its events go out at once. */
  eventsWritten: () => void;
}
