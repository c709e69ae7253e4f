import type { FormCreatedView, FormListItemView, FormUpdatedView } from '@formcast/contracts';
import { buildXml, xmlArray, xmlInteger } from '@formcast/xml-writing';

function formElement(form: FormListItemView): Record<string, unknown> {
  return { id: xmlInteger(form.id), name: form.name, namespace: form.namespace, version: form.version, description: form.description, group: form.group };
}

/** `GET /organizations/<org>/forms.xml`: `<forms type="array"><form><id/><name/><namespace/><version/><description/><group/></form>…` (form.md). */
export function renderFormsXml(forms: FormListItemView[]): string {
  return buildXml('forms', xmlArray('form', forms.map(formElement)));
}

/** One form's summary (a properties change, a create or update answered in XML): `<form>…</form>`. */
export function renderFormXml(form: FormListItemView | FormCreatedView | FormUpdatedView): string {
  const element: Record<string, unknown> = { id: xmlInteger(form.id), namespace: form.namespace, name: form.name };
  for (const key of ['version', 'description', 'group'] as const) if (key in form) element[key] = (form as unknown as Record<string, unknown>)[key];
  return buildXml('form', element);
}
