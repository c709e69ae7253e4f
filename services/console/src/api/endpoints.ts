import type { ApiClient } from './client';
import type {
  Delivery,
  DeliveryPage,
  Destination,
  Device,
  DeviceBadge,
  Dispatch,
  FormDefinition,
  FormSummary,
  ResourceDetail,
  ResourceSummary,
  SubmissionPage,
} from './types';

/** Every call the console makes: public API paths only (docs/api.md, "Every path, by generation"). */

export async function listDevices(api: ApiClient): Promise<Device[]> {
  return (await api.getJson<{ devices: Device[] }>(`/api/v2/organizations/${api.orgId}/devices.json`)).devices;
}

export async function approveDevice(api: ApiClient, deviceId: number): Promise<void> {
  await api.sendJson('POST', `/api/organizations/${api.orgId}/devices/${deviceId}/approve.json`);
}

/** The device's badge and whether it has a push token. */
export async function deviceBadge(api: ApiClient, deviceId: number): Promise<DeviceBadge> {
  return api.getJson<DeviceBadge>(`/clients/${deviceId}/badge.json`);
}

export async function listForms(api: ApiClient): Promise<FormSummary[]> {
  return (await api.getJson<{ forms: FormSummary[] }>(`/organizations/${api.orgId}/forms.json`)).forms;
}

export async function formDefinition(api: ApiClient, formId: number): Promise<FormDefinition> {
  return api.getJson<FormDefinition>(`/organizations/${api.orgId}/forms/${formId}.json`);
}

export interface NewDispatch {
  form_namespace: string;
  form_name?: string;
  form_description?: string;
  payload: Record<string, unknown>;
  scheduled_at?: string;
}

export async function createDispatch(api: ApiClient, deviceId: number, dispatch: NewDispatch): Promise<Dispatch> {
  const answer = await api.sendJson<{ dispatch: Dispatch }>('POST', `/api/v3/devices/${deviceId}/dispatches.json`, dispatch);
  if (answer === null) throw new Error('The API answered the dispatch without a body');
  return answer.dispatch;
}

/** The API's largest page: the organization's outstanding work in one request. */
const largestPage = 1000;

export async function organizationDispatches(api: ApiClient): Promise<Dispatch[]> {
  return (await api.getJson<{ dispatches: Dispatch[] }>(`/api/v3/organization_dispatches.json?items=${largestPage}`)).dispatches;
}

export async function revokeDispatch(api: ApiClient, dispatchId: number): Promise<void> {
  await api.sendJson('DELETE', `/api/v3/dispatches/${dispatchId}.json`);
}

export async function submissionPage(api: ApiClient, formId: number, page: number, perPage: number): Promise<SubmissionPage> {
  return api.getJson<SubmissionPage>(`/api/forms/${formId}/device_magic_database.json?page=${page}&per_page=${perPage}`);
}

export async function listDestinations(api: ApiClient, formId: number): Promise<Destination[]> {
  return (await api.getJson<{ destinations: Destination[] }>(`/api/forms/${formId}/destinations.json`)).destinations;
}

export async function deliveryLog(api: ApiClient, formId: number, destinationId: number, perPage: number): Promise<DeliveryPage> {
  return api.getJson<DeliveryPage>(`/api/forms/${formId}/destinations/${destinationId}/deliveries.json?page=1&per_page=${perPage}`);
}

export async function redeliver(api: ApiClient, formId: number, destinationId: number, delivery: Delivery): Promise<void> {
  await api.sendJson('POST', `/api/forms/${formId}/destinations/${destinationId}/deliveries/${delivery.id}/redeliver.json`);
}

export async function listResources(api: ApiClient): Promise<ResourceSummary[]> {
  return (await api.getJson<{ resources: ResourceSummary[] }>('/api/v3/resources.json')).resources;
}

export async function describeResource(api: ApiClient, resourceId: number): Promise<ResourceDetail> {
  return (await api.getJson<{ resource: ResourceDetail }>(`/api/v3/resources/${resourceId}/describe.json`)).resource;
}

/** The file's bytes (the first generation's download path, the only one). */
export async function downloadResource(api: ApiClient, resourceId: number): Promise<Blob> {
  return (await api.fetchOk(`/api/resources/${resourceId}`)).blob();
}
