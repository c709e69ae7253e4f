import type { DirectoryStore } from '../store/directory-store';

/** What every directory handler is built from. */
export interface DirectoryDeps {
  store: DirectoryStore;
  /** Base of generated form namespaces: `<base>/xforms/<uuid>`. */
  formNamespaceBase: string;
}
