import type { Bus } from '@formcast/bus';
import type { Logger } from '@formcast/platform';
import type { DirectoryStore } from '../store/directory-store';

/** What every directory handler is built from. */
export interface DirectoryDeps {
  store: DirectoryStore;
  /** Base of generated form namespaces: `<base>/xforms/<uuid>`. */
  formNamespaceBase: string;
  /** For change events (see announce.ts); omitted, nothing is announced. */
  bus?: Bus;
  logger?: Logger;
}
