import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { uniqueName } from '@formcast/testing';
import { type GroupPatch, planGroupDeletion, planGroupUpdate } from '../../src/domain/group-rules';
import { reviseForm as revision } from '../../src/domain/form-rules';
import { foundOrganization, revokeToken as revocation } from '../../src/domain/organization-rules';
import type { Device, Form, FormDefinition, Group, NewDevice } from '../../src/domain/records';
import type { DirectoryStore } from '../../src/store';

/**
 * What every part of the directory store contract is written with: a fresh, empty store for
 * each test (closed afterwards), records to fill it, and the changes the handlers make, each
 * decided by the domain's rule as the handlers decide it.
 */
export class DirectoryContractFixtures {
  /** The store of the running test. */
  store!: DirectoryStore;

  readonly unknownId = 987654;
  readonly isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

  readonly newOrganization = (orgName = 'Acme Surveys') => {
    return this.store.organizations.create(
      foundOrganization({ name: orgName, enrollmentCodeHash: uniqueName('enroll'), tokenHash: uniqueName('token-hash') }, now()),
    );
  };

  readonly newOrgId = async (): Promise<number> => {
    return (await this.newOrganization()).organization.id;
  };

  readonly definition = (title: string): FormDefinition => {
    return {
      type: 'root',
      title,
      children: [
        { identifier: 'site', title: 'Site', type: 'text' },
        {
          identifier: 'readings',
          type: 'group',
          repeat: true,
          children: [{ identifier: 'value', type: 'decimal', constraints: { min: 0 } }],
        },
      ],
    };
  };

  /** A form in `groupId`, or in Default. */
  readonly newForm = async (orgId: number, extra: { groupId?: number; namespace?: string; title?: string } = {}): Promise<Form> => {
    const title = extra.title ?? 'Inspection';
    const createdAt = now();
    return this.store.forms.create({
      orgId,
      groupId: extra.groupId ?? (await this.store.groups.defaultGroupId(orgId)),
      name: title,
      namespace: extra.namespace ?? `http://forms.example.com/${uniqueName('form')}`,
      description: 'Weekly site inspection',
      revision: 1,
      locked: false,
      definition: this.definition(title),
      createdAt,
      updatedAt: createdAt,
    }, randomUUID());
  };

  /** A device as enrollment gives it (pending), in no group unless told. */
  readonly enrollment = (orgId: number, extra: Partial<NewDevice> = {}): NewDevice => {
    return {
      orgId,
      identifier: uniqueName('Android'),
      owner: 'Sam Field',
      description: 'Tablet in van 3',
      pendingApproval: true,
      pushToken: 'fcm-token-1',
      secretHash: uniqueName('secret-hash'),
      groupIds: [],
      osVersion: null,
      appIdentifier: null,
      appVersion: null,
      customAttributes: {},
      createdAt: now(),
      ...extra,
    };
  };

  readonly newDevice = (orgId: number, extra: Partial<NewDevice> = {}): Promise<Device> => {
    return this.store.devices.enroll(this.enrollment(orgId, extra));
  };

  readonly newGroup = async (orgId: number, groupName = uniqueName('Group')): Promise<Group> => {
    const [group] = await this.store.groups.create(orgId, [groupName], randomUUID());
    if (!group) throw new Error('create returned nothing');
    return group;
  };

  // Changes, decided by the rules --------------------------------------------------------

  readonly updateGroup = async (orgId: number, groupId: number, patch: GroupPatch): Promise<Group> => {
    const defaultGroupId = await this.store.groups.defaultGroupId(orgId);
    return this.store.groups.update(orgId, groupId, (group) => planGroupUpdate(group, patch, defaultGroupId, now()));
  };

  readonly deleteGroup = async (orgId: number, groupId: number): Promise<void> => {
    const defaultGroupId = await this.store.groups.defaultGroupId(orgId);
    await this.store.groups.delete(orgId, groupId, (group) => planGroupDeletion(group, defaultGroupId, now()));
  };

  readonly reviseForm = (orgId: number, formId: number, definition: FormDefinition): Promise<Form> => {
    return this.store.forms.revise(orgId, formId, (form) => revision(form, definition, now()));
  };

  readonly revokeToken = (orgId: number, tokenId: number, at = now()) => {
    return this.store.organizations.changeToken(orgId, tokenId, (token) => revocation(token, at));
  };

  readonly approveDevice = (orgId: number, deviceId: number): Promise<Device> => {
    return this.store.devices.update(orgId, deviceId, { pendingApproval: false });
  };

  // Reads that must find ----------------------------------------------------------------

  readonly defaultGroup = async (orgId: number): Promise<Group> => {
    const group = await this.store.groups.findByName(orgId, 'Default');
    if (!group) throw new Error('no Default group');
    return group;
  };

  readonly group = async (orgId: number, groupId: number): Promise<Group> => {
    const found = await this.store.groups.get(orgId, groupId);
    if (!found) throw new Error(`group ${groupId} is missing`);
    return found;
  };

  readonly form = async (orgId: number, formId: number): Promise<Form> => {
    const found = await this.store.forms.get(orgId, formId);
    if (!found) throw new Error(`form ${formId} is missing`);
    return found;
  };

  readonly device = async (orgId: number, deviceId: number): Promise<Device> => {
    const found = await this.store.devices.get(orgId, deviceId);
    if (!found) throw new Error(`device ${deviceId} is missing`);
    return found;
  };

  readonly expectAppError = async (action: Promise<unknown>, code: ErrorCode, message?: string | RegExp): Promise<void> => {
    const error: unknown = await action.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!isAppError(error)) throw new Error(`expected an AppError '${code}', got ${String(error)}`);
    expect(error.code).toBe(code);
    if (message !== undefined) expect(error.message).toMatch(message);
  };
}

/** Fixtures on a fresh store for each test of the enclosing describe block. */
export function useDirectoryContractFixtures(makeStore: () => Promise<DirectoryStore>): DirectoryContractFixtures {
  const fixtures = new DirectoryContractFixtures();
  beforeEach(async () => {
    fixtures.store = await makeStore();
  });
  afterEach(async () => {
    await fixtures.store.close();
  });
  return fixtures;
}

export function now(): string {
  return new Date().toISOString();
}
