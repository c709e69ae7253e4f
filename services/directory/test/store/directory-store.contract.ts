import type { DirectoryStore } from '../../src/store';
import { describeAppliedCreatesContract } from './applied-creates.contract';
import { useDirectoryContractFixtures } from './contract-fixtures';
import { describeDeviceStoreContract } from './devices/device-store.contract';
import { describeFormStoreContract } from './forms/form-store.contract';
import { describeGroupStoreContract } from './groups/group-store.contract';
import { describeOrganizationScopingContract } from './organization-scoping.contract';
import { describeOrganizationStoreContract } from './organizations/organization-store.contract';

/**
 * The behaviour every DirectoryStore adapter must have: one suite, run against each adapter
 * (see the port's doc comments in src/store/directory-store.ts and its parts for the rules
 * checked here), one part per aggregate. `makeStore` gives a fresh, empty store for each
 * test; the suite closes it afterwards.
 */
export function describeDirectoryStoreContract(name: string, makeStore: () => Promise<DirectoryStore>): void {
  describe(name, () => {
    const fixtures = useDirectoryContractFixtures(makeStore);

    describeOrganizationStoreContract(fixtures);
    describeGroupStoreContract(fixtures);
    describeDeviceStoreContract(fixtures);
    describeFormStoreContract(fixtures);
    describeOrganizationScopingContract(fixtures);
    describeAppliedCreatesContract(fixtures);

    it('answers ping', async () => {
      await expect(fixtures.store.ping()).resolves.toBeUndefined();
    });
  });
}
