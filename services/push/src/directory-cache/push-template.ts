import type { Envelope, ResolvedForm } from '@formcast/contracts';
import { AppError, isAppError, requireOrgId } from '@formcast/platform';
import type { DirectoryLookup } from './directory-lookup';

/** The template a push names must be one of the organization's forms: a bad request otherwise. */
export async function pushTemplate(directory: DirectoryLookup, command: Envelope, namespace: string): Promise<ResolvedForm> {
  try {
    return await directory.form(requireOrgId(command), namespace, command.requestId);
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') {
      throw new AppError('invalid', `form_namespace: no form of this organization has the namespace ${namespace}`);
    }
    throw error;
  }
}
