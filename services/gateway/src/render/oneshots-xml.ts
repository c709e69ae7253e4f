import type { OneshotCreatedView, OutstandingOneshotView } from '@formcast/contracts';
import { buildXml, xmlArray, xmlInteger } from '@formcast/xml-writing';

/** Spec 2.7: `<oneshot_list><oneshot><id/><namespace/><name/></oneshot></oneshot_list>`. */
export function renderOneshotListXml(created: OneshotCreatedView[]): string {
  return buildXml('oneshot_list', {
    oneshot: created.map((o) => ({ id: xmlInteger(o.id), namespace: o.namespace, name: o.name })),
  });
}

function formElement(o: OutstandingOneshotView): Record<string, unknown> {
  return {
    description: o.description,
    'device-id': xmlInteger(o.device_id),
    id: xmlInteger(o.id),
    name: o.name,
    namespace: o.namespace,
    'organization-id': xmlInteger(o.organization_id),
  };
}

/** Spec 2.8: `<forms type="array"><form>…</form></forms>`, Rails style. */
export function renderOutstandingXml(oneshots: OutstandingOneshotView[]): string {
  return buildXml('forms', xmlArray('form', oneshots.map(formElement)));
}

export function renderOutstandingOneXml(oneshot: OutstandingOneshotView): string {
  return buildXml('form', formElement(oneshot));
}
