import type { DeliveryListView, DeliveryView, DestinationWithSecretView, DeviceOneshotView } from '@formcast/contracts';
import type { ApiClient } from './api-client';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './fixtures';
import { createTemplate, pushJson, type TestTemplate } from './push-fixtures';
import type { OneshotToSubmit } from './submission-stream';
import { WebhookReceiver } from './webhook-receiver';

/**
 * The set-up of a submission drill: an organization whose form has two destinations, a
 * JSON webhook to a local receiver and a chained dispatch of a follow-up form (its `note`
 * pre-filled from the submission's) back to the device that submitted; and `count`
 * oneshots of the form pushed to a few devices, ready to be submitted.
 */
export interface SubmissionDrill {
  api: ApiClient;
  org: TestOrganization;
  devices: TestDevice[];
  form: TestTemplate;
  followUp: TestTemplate;
  receiver: WebhookReceiver;
  /** The webhook's and the dispatch's ids. */
  destinations: { webhook: number; dispatch: number };
  oneshots: OneshotToSubmit[];
}

/** Where the receiver takes the drill's webhook. */
const hookPath = '/hook';

const noteForm = (title: string) => ({ type: 'root', title, children: [{ identifier: 'note', title: 'Note', type: 'text' }] });

async function createDestination(api: ApiClient, org: TestOrganization, form: TestTemplate, body: object): Promise<DestinationWithSecretView> {
  const res = await api.post(`/api/forms/${form.id}/destinations.json`, { token: org.token, json: body });
  if (res.status !== 201) throw new Error(`creating a destination answered ${res.status}: ${res.text}`);
  return res.json<{ destination: DestinationWithSecretView }>().destination;
}

export async function startSubmissionDrill(api: ApiClient, adminToken: string, count: number): Promise<SubmissionDrill> {
  const org = await createOrganization(api, adminToken);
  const form = await createTemplate(api, org, noteForm('Drill submission'));
  const followUp = await createTemplate(api, org, noteForm('Drill follow-up'));
  const devices: TestDevice[] = [];
  for (let i = 0; i < 4; i += 1) devices.push(await enrollDevice(api, org));
  const receiver = await WebhookReceiver.start();
  try {
    const webhook = await createDestination(api, org, form, {
      destination: { description: 'Drill receiver', format_selection: 'json_format', transport_selection: 'http_transport' },
      http_transport: { uri: receiver.url(hookPath) },
    });
    const dispatch = await createDestination(api, org, form, {
      destination: { description: 'Follow-up', format_selection: 'xml_format', transport_selection: 'dispatch_transport' },
      dispatch_transport: { form_namespace: followUp.namespace, field_map: { note: 'note' } },
    });
    const oneshots: OneshotToSubmit[] = [];
    const pushes = 4;
    await Promise.all(
      Array.from({ length: pushes }, async (_, worker) => {
        for (let n = worker; n < count; n += pushes) {
          const device = devices[n % devices.length]!;
          const res = await pushJson(api, org, device.identifier, { form_namespace: form.namespace, payload: {} });
          if (res.status !== 202) throw new Error(`pushing answered ${res.status}: ${res.text}`);
          oneshots.push({ device, oneshotId: res.json().oneshot_list[0].id, tag: `submission-${n}` });
        }
      }),
    );
    return { api, org, devices, form, followUp, receiver, destinations: { webhook: webhook.id, dispatch: dispatch.id }, oneshots };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}

/** Every delivery of a destination, from its delivery log. */
export async function deliveriesOf(drill: SubmissionDrill, destinationId: number): Promise<DeliveryView[]> {
  const deliveries: DeliveryView[] = [];
  for (let page = 1; ; page += 1) {
    const res = await drill.api.get(`/api/forms/${drill.form.id}/destinations/${destinationId}/deliveries.json?page=${page}&per_page=100`, {
      token: drill.org.token,
    });
    if (res.status !== 200) throw new Error(`the delivery log answered ${res.status}: ${res.text}`);
    const log = res.json<DeliveryListView>();
    deliveries.push(...log.deliveries);
    if (page >= log.total_pages) return deliveries;
  }
}

/** The follow-up oneshots outstanding on a device, as the device sees them. */
export async function followUpsOf(drill: SubmissionDrill, device: TestDevice): Promise<DeviceOneshotView[]> {
  const res = await drill.api.get('/device/oneshots', { bearer: device.secret });
  if (res.status !== 200) throw new Error(`listing a device's oneshots answered ${res.status}: ${res.text}`);
  return res.json<{ oneshots: DeviceOneshotView[] }>().oneshots.filter((o) => o.form_namespace === drill.followUp.namespace);
}

/** What the receiver got, each JSON delivery with its webhook-id. */
export function webhooksReceived(drill: SubmissionDrill): Array<{ webhookId: string; submissionId: number; note: unknown }> {
  return drill.receiver.received(hookPath).map((request) => {
    const body = JSON.parse(request.body) as { metadata: { submission_id: number }; answers: Record<string, { value: unknown }> };
    return { webhookId: String(request.headers['webhook-id']), submissionId: body.metadata.submission_id, note: body.answers['note']?.value };
  });
}
