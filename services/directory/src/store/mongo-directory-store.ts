import { MongoStore } from '@formcast/storage';
import type { Connection } from 'mongoose';
import type { DirectoryStore } from './directory-store';
import { MongoDeviceStore } from './devices/mongo-device-store';
import { MongoFormStore } from './forms/mongo-form-store';
import { MongoGroupStore } from './groups/mongo-group-store';
import { MongoDirectoryDb } from './mongo-directory-db';
import { moveLegacyDirectoryShapes } from './mongo-legacy-shapes';
import { directoryModels, type DirectoryModels } from './mongo-models';
import { MongoOrganizationStore } from './organizations/mongo-organization-store';

/**
 * The directory store on MongoDB (distributed mode): its four parts on one connection.
 * Changes spanning several documents run in one transaction, which needs a replica set (a
 * single-node one is enough).
 */
export class MongoDirectoryStore extends MongoStore<DirectoryModels> implements DirectoryStore {
  readonly organizations: MongoOrganizationStore;
  readonly groups: MongoGroupStore;
  readonly devices: MongoDeviceStore;
  readonly forms: MongoFormStore;

  constructor(connection: Connection) {
    super(connection, directoryModels, 'directory');
    // Every read and write waits for the start, which brings what older releases left up to date (see migrate).
    const db = new MongoDirectoryDb(connection, this.models, () => this.start(), (change) => this.transaction(change));
    this.organizations = new MongoOrganizationStore(db);
    this.groups = new MongoGroupStore(db);
    this.devices = new MongoDeviceStore(db);
    this.forms = new MongoFormStore(db);
  }

  /** At start, once the indexes exist (see MongoStore.start). */
  protected override async migrate(): Promise<void> {
    await moveLegacyDirectoryShapes(this.connection);
  }
}
