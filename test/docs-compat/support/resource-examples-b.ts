import { readFileSync } from 'node:fs';
import { waitFor } from '@formcast/testing';
import { jpegImage, mime, realSpreadsheetPath } from '../../fixtures/resource-files';
import { systemModes } from '../../support/start-system';
import { useSystem, type SystemUnderTest } from '../../support/use-system';
import { expectJsonShape, expectXmlShape } from './doc-shape-b';

/** The resource docs' example answers (doc/api/resource.md, v1/resource.md, v3/resource.md, resource_v4*.md), one element per array. */
export const listJsonExample = { resources: [{ id: 1, original_filename: 'R2-D2.jpg', version: 0, description: 'r1' }] };
export const listXmlExample = '<resources><resource><id>1</id><original_filename>R2-D2.jpg</original_filename><version>0</version><description>r1</description></resource></resources>';
export const describeJsonExample = {
  resource: {
    id: 140222,
    identifier: 'dbfd3a10-249c-0133-5179-14109fd23119',
    original_filename: 'text_resource.xlsx',
    version: 1,
    description: 'Equipment_List',
    status: 'Ready',
    generated_content_summary: [
      {
        table_name: 'Equipment_List.Equipment_List',
        original_sheet_name: 'Equipment_List',
        table_id: '5abae920-d3d6-013a-794d-6ae90a38da9d',
        columns: [{ column_name: 'Equipment', column_number: 1, column_id: '5abaf4c0-d3d6-013a-794d-6ae90a38da9d' }],
      },
    ],
  },
};
export const describeXmlExample = `<resource><id>123</id><identifier>d</identifier><original_filename>E.xlsx</original_filename><version>1</version><description>E</description><status>Ready</status>
<generated_content_summary><tables><table><table_name>E.E</table_name><table_id>5</table_id><columns><column><column_name>Equipment</column_name><column_number>1</column_number><column_id>5</column_id></column></columns></table></tables></generated_content_summary></resource>`;
export const jobQueuedExample = {
  async_resource_update_id: '1bddb14b-c65c-414a-9e1b-6ea99b599ba3',
  status: 'queued',
  resource_version_when_queued: null,
  poll_url: '/api/v4/async_resource_updates/1bddb14b-c65c-414a-9e1b-6ea99b599ba3',
  created_at: '2026-02-09T14:19:59Z',
  updated_at: '2026-02-09T14:19:59Z',
};
export const jobCompletedExample = {
  async_resource_update_id: '1bddb14b-c65c-414a-9e1b-6ea99b599ba3',
  status: 'completed',
  resource_version_when_queued: 10,
  resource_version_when_completed: 11,
  resource: { id: 7, identifier: '59598680-e7f0-013e-f9dc-1e72db44c400', original_filename: 'R2_D3.jpg', version: 11, description: 'r3' },
  created_at: '2026-02-09T14:19:59Z',
  updated_at: '2026-02-09T14:20:03Z',
};
export const jobFailedExample = {
  async_resource_update_id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
  status: 'failed',
  resource_version_when_queued: 10,
  error: 'An error occurred while processing this resource update.',
  created_at: '2026-02-09T14:19:59Z',
  updated_at: '2026-02-09T14:20:03Z',
};

/** The documented request body, its placeholder Base64 ("TWFuIGlz…") replaced by a real JPEG's. */
export const documentedResourceBody = (fileName: string, typeKey: 'content_type' | 'mime_type' = 'content_type') => ({
  resource: { description: 'r3', file: { file_name: fileName, file_data: jpegImage().toString('base64'), [typeKey]: 'image/jpeg' } },
});

/** What a resource doc file shows; each part present gets its tests. */
export interface ResourceDocSections {
  /** GET list: which paths, each answering the example's JSON (`.json`) or XML (`.xml`). */
  list?: string[];
  /** GET /api/resources/:id: the bytes (with these suffixes). */
  download?: string[];
  /** GET /api/v3/resources/:id/describe.json / .xml */
  describe?: boolean;
  /** POST /api/v3/resources.json and PUT /api/v3/resources/:id.json with the documented bodies: 202, empty. */
  v3Writes?: boolean;
  /** DELETE /api/resources/:id: 200, as the seed spec says (the doc says 202; the spec wins). */
  deleteV1?: boolean;
  /** POST /api/v4/resources.json, PUT /api/v4/resources/:id.json and the poll, in the examples' shapes. */
  v4?: boolean;
}

async function uploadSpreadsheet(sys: SystemUnderTest): Promise<number> {
  const res = await sys.api.post('/api/resources.json', {
    token: sys.org.token,
    json: { resource: { description: 'Equipment_List', file: { file_name: 'text_resource.xlsx', file_data: readFileSync(realSpreadsheetPath).toString('base64'), content_type: mime.xlsx } } },
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
  return res.json().resource.id;
}

/** The doc file's examples against Formcast, in every mode. */
export function describeResourceDocExamples(doc: string, sections: ResourceDocSections): void {
  describe.each(systemModes)(`${doc}: the documented examples (%s)`, (mode) => {
    const sys = useSystem(mode, { organizations: 2 });
    let resourceId: number;
    beforeAll(async () => {
      resourceId = await uploadSpreadsheet(sys);
    });
    const get = (path: string, org = sys.org) => sys.api.get(path, { token: org.token });

    for (const path of sections.list ?? []) {
      it(`GET ${path} answers in the example's shape`, async () => {
        const res = await get(path);
        expect(res.status).toBe(200);
        if (path.endsWith('.xml')) expectXmlShape(res.text, listXmlExample);
        else expectJsonShape(res.json(), listJsonExample);
      });
    }

    for (const suffix of sections.download ?? []) {
      it(`GET /api/resources/:id${suffix} answers the file's bytes; another organization's id is 404`, async () => {
        const res = await get(`/api/resources/${resourceId}${suffix}`);
        expect([res.status, res.headers.get('content-type')]).toEqual([200, mime.xlsx]);
        expect((await get(`/api/resources/${resourceId}${suffix}`, sys.orgs[1])).status).toBe(404);
      });
    }

    if (sections.describe) {
      it('GET /api/v3/resources/:resource_id/describe.json and .xml answer in the examples\' shapes', async () => {
        const json = await get(`/api/v3/resources/${resourceId}/describe.json`);
        expect(json.status).toBe(200);
        expectJsonShape(json.json(), describeJsonExample);
        const xml = await get(`/api/v3/resources/${resourceId}/describe.xml`);
        expect(xml.status).toBe(200);
        expectXmlShape(xml.text, describeXmlExample);
      });
    }

    if (sections.v3Writes) {
      it('POST /api/v3/resources.json and PUT /api/v3/resources/:id.json with the documented bodies: 202, empty', async () => {
        const created = await sys.api.post('/api/v3/resources.json', { token: sys.org.token, json: documentedResourceBody('R2_D3.jpg') });
        expect([created.status, created.text]).toEqual([202, '']);
        const id = (await get('/api/resources.json')).json().resources.find((r: { original_filename: string }) => r.original_filename === 'R2_D3.jpg').id;
        const updated = await sys.api.put(`/api/v3/resources/${id}.json`, { token: sys.org.token, json: documentedResourceBody('R2_D2_2.jpg') });
        expect([updated.status, updated.text]).toEqual([202, '']);
        expect((await get(`/api/resources/${id}/describe.json`)).json().resource).toMatchObject({ original_filename: 'R2_D2_2.jpg', version: 1 });
      });
    }

    if (sections.deleteV1) {
      it('DELETE /api/resources/:id: 200 (the seed spec wins over the doc\'s 202), then 404', async () => {
        const id = await uploadSpreadsheet(sys);
        expect((await sys.api.delete(`/api/resources/${id}`, { token: sys.orgs[1].token })).status).toBe(404);
        expect((await sys.api.delete(`/api/resources/${id}`, { token: sys.org.token })).status).toBe(200);
        expect((await sys.api.delete(`/api/resources/${id}`, { token: sys.org.token })).status).toBe(404);
      });
    }

    if (sections.v4) {
      const finished = async (id: string) => {
        let job: any;
        await waitFor(async () => {
          job = (await get(`/api/v4/async_resource_updates/${id}`)).json();
          return job.status === 'completed' || job.status === 'failed';
        });
        return job;
      };

      it('POST /api/v4/resources.json and PUT /api/v4/resources/:id.json with the documented bodies: 202 and the jobs in the examples\' shapes', async () => {
        const created = await sys.api.post('/api/v4/resources.json', { token: sys.org.token, json: documentedResourceBody('R2_D3.jpg', 'mime_type') });
        expect(created.status).toBe(202);
        expectJsonShape(created.json(), jobQueuedExample);
        const done = await finished(created.json().async_resource_update_id);
        expectJsonShape(done, { ...jobCompletedExample, resource_version_when_queued: null });

        const updated = await sys.api.put(`/api/v4/resources/${done.resource.id}.json`, { token: sys.org.token, json: documentedResourceBody('R2_D2_2.jpg', 'mime_type') });
        expect(updated.status).toBe(202);
        expectJsonShape(updated.json(), { ...jobQueuedExample, resource_version_when_queued: 0 });
        expectJsonShape(await finished(updated.json().async_resource_update_id), jobCompletedExample);
      });

      it('GET /api/v4/async_resource_updates/:id of a failed job answers in the example\'s shape; another organization\'s is 404', async () => {
        const body = { resource: { description: 'r3', file: { file_name: 'R2_D3.jpg', file_data: Buffer.from('not a jpeg').toString('base64'), mime_type: 'image/jpeg' } } };
        const queued = await sys.api.put(`/api/v4/resources/${resourceId}.json`, { token: sys.org.token, json: body });
        expect(queued.status).toBe(202);
        const failed = await finished(queued.json().async_resource_update_id);
        expectJsonShape(failed, jobFailedExample);
        expect((await get(`/api/v4/async_resource_updates/${failed.async_resource_update_id}`, sys.orgs[1])).status).toBe(404);
      });
    }
  });
}
