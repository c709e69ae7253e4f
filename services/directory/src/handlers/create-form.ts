import type { CommandHandler } from '@formcast/bus';
import { createFormPayload, type FormCreatedView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { checkFormDefinition } from '../domain/form-definition';
import { generateFormNamespace } from '../domain/form-namespace';
import { newForm } from '../domain/form-rules';
import type { DirectoryDeps } from './deps';

/**
 * A new template in the Default group; it keeps a namespace of its own if it brings one. Run
 * again under the same command id (redelivered, or a keyed request's retry after a crash), it
 * answers the form that command created.
 */
export const createForm =
  ({ store, formNamespaceBase }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormCreatedView> => {
    const orgId = requireOrgId(command);
    const { definition } = parsePayload(createFormPayload, command.payload);
    const form = await store.forms.create(
      newForm(checkFormDefinition(definition), {
        orgId,
        groupId: await store.groups.defaultGroupId(orgId),
        generatedNamespace: generateFormNamespace(formNamespaceBase),
        now: new Date().toISOString(),
      }),
      command.id,
    );
    return { id: form.id, namespace: form.namespace, name: form.name };
  };
