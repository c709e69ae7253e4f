import type { Announcer } from '../events/announce';
import type { DirectoryStore } from '../store/directory-store';

/** What every directory handler is built from; `bus` (see Announcer) carries change events. */
export interface DirectoryDeps extends Announcer {
  store: DirectoryStore;
  /** Base of generated form namespaces: `<base>/xforms/<uuid>`. */
  formNamespaceBase: string;
}
