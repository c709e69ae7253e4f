import type { OneshotCreatedView, OutstandingOneshotView } from '@formcast/contracts';
import { buildXml, xmlInteger } from '@formcast/xml-writing';
import { recordXml } from './record-xml';

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
export const { list: renderOutstandingXml, one: renderOutstandingOneXml } = recordXml('forms', 'form', formElement);
