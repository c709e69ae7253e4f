import type { EventHandler } from '@formcast/bus';
import { deviceChangedPayload, formChangedPayload } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import type { PushDeps } from './deps';

/** A device changed in the directory (approved, deleted, new push token): forget the cached copy. */
export const deviceChanged =
  ({ directory }: PushDeps): EventHandler =>
  async (event) => {
    const { orgId, deviceId, identifier } = parsePayload(deviceChangedPayload, event.payload);
    directory.forgetDevice(orgId, deviceId, identifier);
  };

/** A template was replaced, moved or deleted: forget the cached copy. */
export const formChanged =
  ({ directory }: PushDeps): EventHandler =>
  async (event) => {
    const { orgId, formId, namespace } = parsePayload(formChangedPayload, event.payload);
    directory.forgetForm(orgId, formId, namespace);
  };
