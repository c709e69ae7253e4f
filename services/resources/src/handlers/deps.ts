import type { FileRules } from '../domain/checked-file';
import type { ResourceStore } from '../store/resource-store';

/** What every resources handler is built from. */
export interface ResourcesDeps {
  store: ResourceStore;
  /** The size limit and id source for incoming files. */
  fileRules: FileRules;
  /** A v4 job was queued: wake the worker (absent: the worker's own polling finds it). */
  asyncUpdatesQueued?: () => void;
  /** COMMAND_TIMEOUT_MS: a create or update not ready to commit within it (less a margin) stores nothing (see answered-in-time.ts). */
  commandTimeoutMs?: number;
}
