import type { CommandHandler } from '@formcast/bus';
import { enrollDevicePayload, type EnrolledDeviceView } from '@formcast/contracts';
import { AppError, generateSecret, hashSecret, parsePayload } from '@formcast/platform';
import { checkDeviceIdentifier } from '../domain/device-identifier';
import { newEnrolledDevice } from '../domain/device-rules';
import { toDeviceView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** A wrong code, and an identifier already enrolled, alike (the gateway counts both against the address). */
const refusedEnrollment = () => new AppError('forbidden', 'enrollment_code: not a valid enrollment code');

/**
 * A device joins the organization of its enrollment code (see newEnrolledDevice), with the
 * OS and app versions it reports. Its secret is shown once, here; only its hash is kept. The
 * answer is the first generation's device, as 2018 clients expect.
 */
export const enrollDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<EnrolledDeviceView> => {
    const input = parsePayload(enrollDevicePayload, command.payload);
    checkDeviceIdentifier(input.identifier);
    const organization = await store.organizations.findByEnrollmentCodeHash(hashSecret(input.enrollment_code));
    if (!organization) throw refusedEnrollment();
    const orgId = organization.id;
    const secret = generateSecret();
    const enrolling = newEnrolledDevice(
      {
        orgId,
        identifier: input.identifier,
        owner: input.owner,
        description: input.description,
        pushToken: input.push_token,
        secretHash: hashSecret(secret),
        osVersion: input.os_version,
        appIdentifier: input.app_identifier,
        appVersion: input.app_version,
      },
      await store.groups.defaultGroupId(orgId),
      new Date().toISOString(),
    );
    const device = await store.devices.enroll(enrolling).catch((error: unknown) => {
      // A taken identifier answers as a wrong code does: a code holder learns no identifiers.
      throw error instanceof AppError && error.code === 'conflict' ? refusedEnrollment() : error;
    });
    return { device: toDeviceView(device, await store.groups.names(orgId)), device_secret: secret };
  };
