import type { CommandHandler } from '@formcast/bus';
import { rotateEnrollmentCodePayload, type EnrollmentCodeView } from '@formcast/contracts';
import { generateSecret, hashSecret, parsePayload, requireOrgId } from '@formcast/platform';
import { enrollmentCodeBytes } from '../domain/organization-rules';
import type { DirectoryDeps } from './deps';

/**
 * A new enrollment code for the organization, shown once, here; only its hash is kept, and
 * the code before stops enrolling at once. Devices enrolled with it stay enrolled.
 */
export const rotateEnrollmentCode =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<EnrollmentCodeView> => {
    const orgId = requireOrgId(command);
    parsePayload(rotateEnrollmentCodePayload, command.payload);
    const enrollmentCode = generateSecret(enrollmentCodeBytes);
    const organization = await store.organizations.replaceEnrollmentCode(orgId, hashSecret(enrollmentCode));
    return { organization_id: organization.id, enrollment_code: enrollmentCode };
  };
