import { createOneshotPayload, updateOneshotPayload } from '@formcast/contracts';
import { bodyOf, fieldOf, type JsonSchema } from './json-schema';

/** The bodies the push API of every generation takes: oneshots (v1), dispatches (v2, v3), bulk dispatch (route-table/oneshots.ts, dispatches.ts). */

const pushNamespace = 'http://mobileforms.devicemagic.com/xforms';

/** Unknown keys are refused (400 naming them): a misspelt `scheduled_at` must never push at once. */
export const createBody: JsonSchema = { ...bodyOf(createOneshotPayload, ['deviceRef', 'fromXml']), additionalProperties: false };
export const updateBody: JsonSchema = (() => {
  const body = bodyOf(updateOneshotPayload, ['deviceRef', 'oneshotId', 'fromXml']);
  const formNamespace = { ...fieldOf(createOneshotPayload, 'form_namespace'), description: 'may be sent again, but must be the dispatch\'s own' };
  return { ...body, properties: { form_namespace: formNamespace, ...(body['properties'] as object) }, additionalProperties: false };
})();

export const oneshotXml = `\`<oneshot xmlns="http://www.w3.org/2002/xforms" xmlns:dm="${pushNamespace}"><dm:form_namespace/><dm:form_name/><dm:form_description/><dm:scheduled_at/><dm:location/><dm:address/><dm:geofence_radius/><question>value</question>…</oneshot>\`: the fields in the push namespace (any prefix), the payload's questions outside it`;

export const dispatchBodyWords =
  '`payload` is required (it may be `{}`) and is checked against the template\'s questions. `scheduled_at` in the future holds the dispatch back until then.';

export const outstandingXml = '`<form><description/><device-id type="integer"/><id type="integer"/><name/><namespace/><organization-id type="integer"/></form>`';
