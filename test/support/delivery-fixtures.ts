import type { DeliveryView } from '@formcast/contracts';
import type { ApiClient } from './api-client';
import type { TestDevice, TestOrganization } from './fixtures';
import { pushJson } from './push-fixtures';

/** A destination made through the API: its id and signing secret (what it answered at 201). */
export interface MadeDestination {
  id: number;
  secret: string;
  view: Record<string, unknown>;
}

/** Makes a destination of the form through the API; anything but 201 throws, with the answer. */
export async function makeDestination(api: ApiClient, org: TestOrganization, formId: number, body: object): Promise<MadeDestination> {
  const res = await api.post(`/api/forms/${formId}/destinations.json`, { token: org.token, json: body });
  if (res.status !== 201) throw new Error(`creating a destination answered ${res.status}: ${res.text}`);
  const { destination } = res.json();
  return { id: destination.id, secret: destination.secret, view: destination };
}

/** The body of a destination sending each submission as `format` (JSON unless given) to `uri` over HTTP. */
export function httpDestinationBody(uri: string, options: { format?: 'json_format' | 'xml_format'; description?: string; headers?: Record<string, string> } = {}): object {
  const format = options.format ?? 'json_format';
  return {
    destination: { description: options.description ?? `to ${uri}`, format_selection: format, transport_selection: 'http_transport' },
    [format]: {},
    http_transport: { uri, ...(options.headers ? { headers: options.headers } : {}) },
  };
}

/** Pushes the form to the device and submits it with these answers (question → value), as the device app does. */
export async function submitThroughPush(api: ApiClient, org: TestOrganization, device: TestDevice, formNamespace: string, values: Record<string, unknown>): Promise<void> {
  const pushed = await pushJson(api, org, device.identifier, { form_namespace: formNamespace, payload: {} });
  if (pushed.status !== 202) throw new Error(`pushing answered ${pushed.status}: ${pushed.text}`);
  const { id } = pushed.json().oneshot_list[0];
  const answers = Object.fromEntries(Object.entries(values).map(([question, value]) => [question, { value }]));
  const res = await api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers } });
  if (res.status !== 201) throw new Error(`submitting answered ${res.status}: ${res.text}`);
}

/** A destination's delivery log, newest first; anything but 200 throws. */
export async function deliveryLog(api: ApiClient, org: TestOrganization, formId: number, destinationId: number): Promise<DeliveryView[]> {
  const res = await api.get(`/api/forms/${formId}/destinations/${destinationId}/deliveries.json`, { token: org.token });
  if (res.status !== 200) throw new Error(`the delivery log answered ${res.status}: ${res.text}`);
  return res.json().deliveries;
}
