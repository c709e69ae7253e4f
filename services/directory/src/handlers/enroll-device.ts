import type { CommandHandler } from '@formcast/bus';
import { enrollDevicePayload, type EnrolledDeviceView } from '@formcast/contracts';
import { AppError, generateSecret, hashSecret, parsePayload } from '@formcast/platform';
import { checkDeviceIdentifier } from '../domain/device-identifier';
import type { DirectoryDeps } from './deps';
import { deviceView } from './device-views';

/**
 * A device joins the organization of its enrollment code, pending approval, in the Default
 * group. Its secret is shown once, here; only its hash is kept.
 */
export const enrollDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<EnrolledDeviceView> => {
    const input = parsePayload(enrollDevicePayload, command.payload);
    checkDeviceIdentifier(input.identifier);
    const organization = await store.findOrganizationByEnrollmentCode(input.enrollment_code);
    if (!organization) throw new AppError('forbidden', 'enrollment_code: not a valid enrollment code');
    const defaultGroup = (await store.listGroups(organization.id)).find((g) => g.isDefault);
    const secret = generateSecret();
    const device = await store.enrollDevice({
      orgId: organization.id,
      identifier: input.identifier,
      owner: input.owner,
      description: input.description,
      pushToken: input.push_token,
      secretHash: hashSecret(secret),
      groupIds: defaultGroup ? [defaultGroup.id] : [],
    });
    return { device: await deviceView(store, device), device_secret: secret };
  };
