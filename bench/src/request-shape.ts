/**
 * The one request shape of A1, A2, S1 and S2: `POST /clients/<device>/oneshots.json` with
 * this JSON body, answered 202 with `{"oneshot_list":[{id, namespace, name}]}`.
 */

/** The template the pushes pre-fill (created once per organization). */
export const benchFormDefinition = {
  type: 'root',
  title: 'Site inspection',
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'comments', title: 'Comments', type: 'textarea' },
    { identifier: 'visits', title: 'Visits', type: 'integer' },
    { identifier: 'status', title: 'Status', type: 'select1', options: [{ value: 'open' }, { value: 'closed' }] },
    {
      identifier: 'parts',
      title: 'Parts',
      type: 'group',
      children: [
        { identifier: 'part_no', title: 'Part', type: 'text' },
        { identifier: 'qty', title: 'Quantity', type: 'integer' },
      ],
    },
  ],
};

/** The answers a push pre-fills, and S6's devices submit (`customer_name` then carries a tag of its own). */
const inspectionAnswers = {
  customer_name: 'Acme Ltd',
  comments: 'Replace the filter and check the pressure on both pumps.',
  visits: '3',
  status: 'open',
  parts: [
    { part_no: 'F-220', qty: '2' },
    { part_no: 'G-17', qty: '1' },
  ],
};

/** The push body for a template namespace (about 400 bytes). */
export function oneshotBody(formNamespace: string): string {
  return JSON.stringify({
    form_namespace: formNamespace,
    form_name: 'Inspection for Acme',
    form_description: 'Call ahead; gate code 4711',
    payload: inspectionAnswers,
  });
}

/** The question whose answer tells S6's submissions apart at the receiver. */
export const tagQuestion = 'customer_name';

/** S6: a device's submission of the template (`POST /device/forms/<form_id>/submissions`), answered as a push pre-fills it, tagged. */
export function submissionBody(tag: string): string {
  return JSON.stringify({ answers: { ...inspectionAnswers, [tagQuestion]: tag }, submission_identifier: tag });
}

/** The path of the n-th push: devices taken in turn. */
export function pushPath(deviceIdentifiers: string[], n: number): string {
  return `/clients/${deviceIdentifiers[n % deviceIdentifiers.length]}/oneshots.json`;
}
