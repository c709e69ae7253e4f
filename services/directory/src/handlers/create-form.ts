import type { CommandHandler } from '@formcast/bus';
import { createFormPayload, type FormCreatedView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { checkFormDefinition } from '../domain/form-definition';
import { generateFormNamespace } from '../domain/form-namespace';
import type { DirectoryDeps } from './deps';

/** A new template in the Default group; it keeps a namespace of its own if it brings one. */
export const createForm =
  ({ store, formNamespaceBase }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormCreatedView> => {
    const orgId = requireOrgId(command);
    const { definition: input } = parsePayload(createFormPayload, command.payload);
    const definition = checkFormDefinition(input);
    const namespace = definition.namespace ?? generateFormNamespace(formNamespaceBase);
    const form = await store.createForm({
      orgId,
      name: definition.title,
      namespace,
      description: typeof definition.description === 'string' ? definition.description : '',
      definition: { ...definition, namespace },
    });
    return { id: form.id, namespace: form.namespace, name: form.name };
  };
