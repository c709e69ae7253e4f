import { AppError } from '@formcast/platform';
import type { Form, FormDefinition, FormRevision, NewForm } from './records';

/**
 * A new template, at revision 1, named after its title. It keeps a namespace of its own if
 * its definition brings one (migrations), else takes `generatedNamespace`.
 */
export function newForm(
  definition: FormDefinition,
  place: { orgId: number; groupId: number; generatedNamespace: string; now: string },
): NewForm {
  const namespace = definition.namespace ?? place.generatedNamespace;
  return {
    orgId: place.orgId,
    groupId: place.groupId,
    name: definition.title,
    namespace,
    description: typeof definition.description === 'string' ? definition.description : '',
    revision: 1,
    locked: false,
    definition: { ...definition, namespace },
    createdAt: place.now,
    updatedAt: place.now,
  };
}

/**
 * A new definition for the same template: the name follows its title, the revision goes up
 * by one, and the namespace never changes (a definition may repeat it, not change it).
 */
export function reviseForm(form: Form, definition: FormDefinition, now: string): FormRevision {
  if (form.locked) throw new AppError('conflict', `Form ${form.id} is locked: unlock it (PUT /api/v3/forms/${form.id}/unlock) to change its definition`);
  if (definition.namespace !== undefined && definition.namespace !== form.namespace) {
    throw new AppError('invalid', 'namespace: a form keeps its namespace; omit it or send the current one');
  }
  return {
    definition: { ...definition, namespace: form.namespace },
    name: definition.title,
    revision: form.revision + 1,
    updatedAt: now,
  };
}
