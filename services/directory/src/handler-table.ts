import { handlersByName } from '@formcast/bus';
import { directoryCommands as commands } from '@formcast/contracts';
import type { DirectoryDeps } from './handlers/deps';
import { approveDevice } from './handlers/approve-device';
import { lockForm } from './handlers/lock-form';
import { authenticateDevice } from './handlers/authenticate-device';
import { authenticateToken } from './handlers/authenticate-token';
import { createForm } from './handlers/create-form';
import { createGroups } from './handlers/create-groups';
import { createOrganization } from './handlers/create-organization';
import { getOrganization } from './handlers/get-organization';
import { listOrganizations } from './handlers/list-organizations';
import { deleteDevice } from './handlers/delete-device';
import { deleteForm } from './handlers/delete-form';
import { deleteGroup } from './handlers/delete-group';
import { enrollDevice } from './handlers/enroll-device';
import { findDevice } from './handlers/find-device';
import { setDevicePushToken } from './handlers/set-device-push-token';
import { clearStalePushToken } from './handlers/clear-stale-push-token';
import { reportDeviceVersions } from './handlers/report-device-versions';
import { resolveDevice } from './handlers/resolve-device';
import { resolveForm } from './handlers/resolve-form';
import { getDevice } from './handlers/get-device';
import { getForm } from './handlers/get-form';
import { issueApiToken } from './handlers/issue-api-token';
import { listApiTokens } from './handlers/list-api-tokens';
import { listDevices } from './handlers/list-devices';
import { listForms } from './handlers/list-forms';
import { getGroup } from './handlers/get-group';
import { listGroups } from './handlers/list-groups';
import { moveForm } from './handlers/move-form';
import { revokeApiToken } from './handlers/revoke-api-token';
import { rotateEnrollmentCode } from './handlers/rotate-enrollment-code';
import { updateDevice } from './handlers/update-device';
import { updateForm } from './handlers/update-form';
import { updateGroup } from './handlers/update-group';

/** The handler of each of the directory service's commands. */
export const commandHandlers = handlersByName<typeof commands, DirectoryDeps>(commands, {
  createOrganization,
  listOrganizations,
  getOrganization,
  rotateEnrollmentCode,
  issueApiToken,
  listApiTokens,
  revokeApiToken,
  authenticateToken,
  authenticateDevice,
  listGroups,
  getGroup,
  createGroups,
  updateGroup,
  deleteGroup,
  listDevices,
  getDevice,
  updateDevice,
  deleteDevice,
  approveDevice,
  enrollDevice,
  reportDeviceVersions,
  findDevice,
  setDevicePushToken,
  clearStalePushToken,
  resolveDevice,
  resolveForm,
  listForms,
  createForm,
  getForm,
  updateForm,
  deleteForm,
  moveForm,
  lockForm,
});

/**
 * The creates that answer once per Idempotency-Key. Not enrollment: a device enrolls with no
 * organization's token, and its request is not a POST of the API.
 */
export const idempotentCommands = [commands.createGroups, commands.createForm];
