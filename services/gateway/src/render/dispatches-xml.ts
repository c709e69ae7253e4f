import type { DispatchView } from '@formcast/contracts';
import { inputElements, xmlInteger, xmlNullableText } from '@formcast/xml-writing';
import { recordXml } from './record-xml';

/** `<t type="dateTime">…</t>`, or `<t type="dateTime" nil="true"/>` when there is none (Rails `to_xml`). */
function xmlDateTime(value: string | null): Record<string, unknown> {
  return value === null ? { '@_type': 'dateTime', '@_nil': 'true' } : { '#text': value, '@_type': 'dateTime' };
}

function xmlFloat(value: number | null): Record<string, unknown> {
  return value === null ? { '@_type': 'float', '@_nil': 'true' } : { '#text': String(value), '@_type': 'float' };
}

/** One `<dispatch>`: the documented fields, dashed, typed; `<inputs>` when they were asked for. */
function dispatchElement(dispatch: DispatchView): Record<string, unknown> {
  const element: Record<string, unknown> = {
    id: xmlInteger(dispatch.id),
    name: dispatch.name,
    namespace: dispatch.namespace,
    version: dispatch.version,
    'organization-id': xmlInteger(dispatch.organization_id),
    'device-id': xmlInteger(dispatch.device_id),
    description: dispatch.description,
    'parent-form-id': xmlInteger(dispatch.parent_form_id),
    'parent-form-version': dispatch.parent_form_version,
    'created-at': xmlDateTime(dispatch.created_at),
    'updated-at': xmlDateTime(dispatch.updated_at),
    'scheduled-at': xmlDateTime(dispatch.scheduled_at),
    location: xmlNullableText(dispatch.location),
    address: xmlNullableText(dispatch.address),
    'geofence-radius': xmlFloat(dispatch.geofence_radius),
    'author-identifier': dispatch.author_identifier,
    'author-type': dispatch.author_type,
  };
  if (dispatch.inputs !== undefined) element['inputs'] = inputElements(dispatch.inputs);
  return element;
}

/** v3 lists: `<dispatches type="array"><dispatch>…</dispatch></dispatches>`; one dispatch (`GET /api/v3/dispatches/<id>`, and the create and update answers): `<dispatch>…</dispatch>`. */
export const { list: renderDispatchesXml, one: renderDispatchXml } = recordXml('dispatches', 'dispatch', dispatchElement);
