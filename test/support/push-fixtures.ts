import type { ApiClient } from './api-client';
import type { TestOrganization } from './fixtures';

/** A template with one question of each kind a push can pre-fill. */
export const inspectionForm = {
  type: 'root',
  title: 'Site inspection',
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'comments', title: 'Comments', type: 'textarea' },
    { identifier: 'visits', title: 'Visits', type: 'integer' },
    { identifier: 'price', title: 'Price', type: 'decimal' },
    { identifier: 'urgent', title: 'Urgent', type: 'boolean' },
    { identifier: 'due', title: 'Due', type: 'date' },
    { identifier: 'arrive', title: 'Arrive', type: 'time' },
    { identifier: 'starts', title: 'Starts', type: 'datetime' },
    { identifier: 'status', title: 'Status', type: 'select1', options: [{ value: 'open' }, { value: 'closed' }] },
    { identifier: 'photo', title: 'Photo', type: 'image' },
    { identifier: 'sketch', title: 'Sketch', type: 'sketch' },
    { identifier: 'site', title: 'Site', type: 'location' },
    {
      identifier: 'contact',
      title: 'Contact',
      type: 'subform',
      children: [
        { identifier: 'phone', title: 'Phone', type: 'text' },
        { identifier: 'floor', title: 'Floor', type: 'integer' },
      ],
    },
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

/** The smallest JPEG header a validator can recognise, as Base64. */
export const tinyJpegBase64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]).toString('base64');
export const tinyPngBase64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64');

export interface TestTemplate {
  id: number;
  namespace: string;
  name: string;
}

export async function createTemplate(api: ApiClient, org: TestOrganization, definition: object = inspectionForm): Promise<TestTemplate> {
  const res = await api.post(`/organizations/${org.orgId}/forms`, { token: org.token, json: definition });
  if (res.status !== 201) throw new Error(`creating a template answered ${res.status}: ${res.text}`);
  return res.json();
}

export async function pushJson(api: ApiClient, org: TestOrganization, device: string | number, body: object) {
  return api.post(`/clients/${device}/oneshots.json`, { token: org.token, json: body });
}
