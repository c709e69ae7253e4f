import { docJson, shapeMismatches, xmlShapeMismatches } from '../../support/doc-shape';
import { enrollDevice, type TestDevice } from '../../support/fixtures';
import { inspectionForm } from '../../support/push-fixtures';
import { systemModes } from '../../support/start-system';
import { useSystem } from '../../support/use-system';

/**
 * The examples of a dispatch doc (doc/api/dispatch.md, doc/api/v3/dispatch.md), as written
 * there, and the suite that holds Formcast's answers to them in every mode: each example
 * response's shape (JSON keys and types, XML root and elements, status, empty bodies) and each
 * example request sent as written (the template's namespace in place of the docs' own).
 */
export interface DispatchDocExamples {
  authorsJson: string;
  authorsXml: string;
  /** The device's, the organization's (and the users') lists: the same shape. */
  listJson: string;
  listXml: string;
  showJson: string;
  showWithInputsJson: string;
  showXml: string;
  showWithInputsXml: string;
  createJsonPayload: string;
  createXmlPayload: string;
  updateJsonPayload: string;
  updateXmlPayload: string;
  /** The docs' query parameters on the author listing and the lists (`items`, `page`), when they show them. */
  paged: boolean;
}

const docNamespace = /http:\/\/www\.devicemagic\.com\/xforms\/[^"<]+/g;

export function dispatchDocSuite(docFile: string, examples: DispatchDocExamples): void {
  describe.each(systemModes)(`${docFile}: every example (%s)`, (mode) => {
    const sys = useSystem(mode, { organizations: 1, template: inspectionForm });
    let device: TestDevice;
    let dispatchId: number;
    const get = (path: string) => sys.api.get(path, { token: sys.org.token });
    /** The docs' request with the suite's template in place of the docs' namespace. */
    const asWritten = (body: string) => body.replace(docNamespace, sys.template.namespace);
    const expectJsonShape = (text: string, example: string, nullable: string[] = []) =>
      expect(shapeMismatches(JSON.parse(text), docJson(example), { freeKeys: ['$.inputs'], nullable })).toEqual([]);
    const expectXmlShape = (text: string, example: string) => expect(xmlShapeMismatches(text, example, { freeElements: ['/dispatch/inputs'] })).toEqual([]);

    beforeAll(async () => {
      device = await enrollDevice(sys.api, sys.org, { owner: 'Iphone' });
      const future = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
      const res = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, {
        token: sys.org.token,
        json: { form_namespace: sys.template.namespace, form_description: 'Test Dispatch form description', scheduled_at: future, payload: { comments: 'Answer1' } },
      });
      expect(res.status).toBe(202);
      dispatchId = res.json().dispatch.id;
    });

    it('POST create: the JSON and the XML payload as written answer 202', async () => {
      const json = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, { token: sys.org.token, body: asWritten(examples.createJsonPayload), contentType: 'application/json' });
      expect([json.status, json.status === 202 ? '' : json.text.slice(0, 300)]).toEqual([202, '']);
      // The docs write the suffix `.(json|XML)`: the XML payload on `.XML`.
      const xml = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.XML`, { token: sys.org.token, body: asWritten(examples.createXmlPayload), contentType: 'application/xml' });
      expect([xml.status, xml.status === 202 ? '' : xml.text.slice(0, 300)]).toEqual([202, '']);
    });

    it('PATCH update: the JSON and the XML payload as written answer 202, on the dispatch the docs\' create made', async () => {
      // The update repeats the create's scheduled_at: on a dispatch created with another, it would be a 400 (a delivered dispatch is not rescheduled).
      const created = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, { token: sys.org.token, body: asWritten(examples.createJsonPayload), contentType: 'application/json' });
      const id = created.json().dispatch.id;
      const json = await sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${id}.json`, { token: sys.org.token, body: asWritten(examples.updateJsonPayload), contentType: 'application/json' });
      expect([json.status, json.status === 202 ? '' : json.text.slice(0, 300)]).toEqual([202, '']);
      const xml = await sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${id}.XML`, { token: sys.org.token, body: asWritten(examples.updateXmlPayload), contentType: 'application/xml' });
      expect([xml.status, xml.status === 202 ? '' : xml.text.slice(0, 300)]).toEqual([202, '']);
    });

    it('GET dispatch_authors: the documented shape in JSON and XML', async () => {
      const query = examples.paged ? '?items=100&page=1' : '';
      const json = await get(`/api/v3/dispatch_authors.json${query}`);
      expect(json.status).toBe(200);
      // The docs' second author is a User, whose identifier is a number: Formcast has devices only.
      const example = docJson(examples.authorsJson) as { authors: unknown[] };
      expect(shapeMismatches(json.json(), { authors: [example.authors[0]] })).toEqual([]);
      const xml = await get(`/api/v3/dispatch_authors.xml${query}`);
      expect([xml.status, xml.headers.get('content-type')]).toEqual([200, expect.stringMatching(/xml/)]);
      expectXmlShape(xml.text, examples.authorsXml);
    });

    it("GET the device's and the organization's dispatches: the documented list in JSON and XML", async () => {
      const query = examples.paged ? '?items=100&page=1' : '';
      for (const path of [`/api/v3/devices/${device.identifier}/dispatches`, '/api/v3/organization_dispatches']) {
        const json = await get(`${path}.json${query}`);
        expect([path, json.status]).toEqual([path, 200]);
        expectJsonShape(json.text, examples.listJson, ['$.dispatches[].scheduled_at']);
        const xml = await get(`${path}.xml${query}`);
        expect([path, xml.status]).toEqual([path, 200]);
        expectXmlShape(xml.text, examples.listXml);
      }
    });

    it('GET show: the bare dispatch, with include_inputs its inputs; <dispatch> in XML', async () => {
      const plain = await get(`/api/v3/dispatches/${dispatchId}.json?include_inputs=false`);
      expect(plain.status).toBe(200);
      expectJsonShape(plain.text, examples.showJson);
      expect(JSON.parse(plain.text)).not.toHaveProperty('inputs');
      const withInputs = await get(`/api/v3/dispatches/${dispatchId}.json?include_inputs=true`);
      expectJsonShape(withInputs.text, examples.showWithInputsJson);
      expect(JSON.parse(withInputs.text).inputs).toEqual({ comments: 'Answer1' });
      expectXmlShape((await get(`/api/v3/dispatches/${dispatchId}.xml`)).text, examples.showXml);
      expectXmlShape((await get(`/api/v3/dispatches/${dispatchId}.xml?include_inputs=true`)).text, examples.showWithInputsXml);
      // The device's show: the same shape.
      expectJsonShape((await get(`/api/v3/devices/${device.identifier}/dispatches/${dispatchId}.json`)).text, examples.showJson);
    });

    it('DELETE and destroy_all: 200 with an empty body', async () => {
      const make = async () =>
        (await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, { token: sys.org.token, json: { form_namespace: sys.template.namespace, payload: {} } })).json().dispatch.id;
      const byDevice = await sys.api.delete(`/api/v3/devices/${device.identifier}/dispatches/${await make()}.json`, { token: sys.org.token });
      expect([byDevice.status, byDevice.text]).toEqual([200, '']);
      const byId = await sys.api.delete(`/api/v3/dispatches/${await make()}.json`, { token: sys.org.token });
      expect([byId.status, byId.text]).toEqual([200, '']);
      const all = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches/destroy_all.json`, { token: sys.org.token });
      expect([all.status, all.text]).toEqual([200, '']);
    });
  });
}
