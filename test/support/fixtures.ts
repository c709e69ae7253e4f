import type { ApiClient } from './api-client';

export interface TestOrganization {
  orgId: number;
  token: string;
  enrollmentCode: string;
}

let counter = 0;

export async function createOrganization(api: ApiClient, adminToken: string, name?: string): Promise<TestOrganization> {
  counter += 1;
  const res = await api.post('/admin/organizations', { bearer: adminToken, json: { name: name ?? `Org ${counter}` } });
  if (res.status !== 201) throw new Error(`creating an organization answered ${res.status}: ${res.text}`);
  const body = res.json();
  return { orgId: body.organization.id, token: body.api_token, enrollmentCode: body.organization.enrollment_code };
}

export interface TestDevice {
  id: number;
  identifier: string;
  secret: string;
}

/** Enrolls a device (without a push token unless given) and, unless told otherwise, approves it. */
export async function enrollDevice(
  api: ApiClient,
  org: TestOrganization,
  options: { identifier?: string; owner?: string; approve?: boolean; pushToken?: string | null } = {},
): Promise<TestDevice> {
  counter += 1;
  const identifier = options.identifier ?? `Android_${process.pid}-${Date.now()}-${counter}`;
  const res = await api.post('/devices/enroll', {
    json: { enrollment_code: org.enrollmentCode, identifier, owner: options.owner ?? 'Field Tech', description: '', push_token: options.pushToken ?? null },
  });
  if (res.status !== 201) throw new Error(`enrolling answered ${res.status}: ${res.text}`);
  const body = res.json();
  if (options.approve !== false) {
    const approved = await api.post(`/organizations/${org.orgId}/devices/${body.device.id}/approve`, { token: org.token });
    if (approved.status !== 200) throw new Error(`approving answered ${approved.status}: ${approved.text}`);
  }
  return { id: body.device.id, identifier, secret: body.device_secret };
}

export const simpleFormDefinition = (title = 'Inspection') => ({
  type: 'root',
  title,
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'visits', title: 'Visits', type: 'integer' },
    {
      identifier: 'parts',
      title: 'Parts',
      type: 'group',
      children: [{ identifier: 'part_no', title: 'Part', type: 'text' }],
    },
  ],
});

export async function createForm(api: ApiClient, org: TestOrganization, title?: string): Promise<{ id: number; namespace: string; name: string }> {
  const res = await api.post(`/organizations/${org.orgId}/forms`, { token: org.token, json: simpleFormDefinition(title) });
  if (res.status !== 201) throw new Error(`creating a form answered ${res.status}: ${res.text}`);
  return res.json();
}
