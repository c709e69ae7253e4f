import { docJson, shapeMismatches, xmlShapeMismatches } from '../../support/doc-shape';
import { enrollDevice, type TestDevice } from '../../support/fixtures';
import { systemModes } from '../../support/start-system';
import { useSystem } from '../../support/use-system';

/**
 * The examples of a devices doc (doc/api/device.md, doc/api/v2/devices.md) as written there,
 * and the suite that holds Formcast's answers to them in every mode: the list and the show in
 * JSON and XML (the show bare, `<device>`), and, where the doc has them, the approve, the
 * delete and the update's example bodies.
 */
export interface DeviceDocExamples {
  listJson: string;
  listXml: string;
  showJson: string;
  showXml: string;
  /** device.md only: `POST …/approve` and `DELETE …` under /api/v2, and the PUT bodies. */
  writes?: { updateJson: string; updateXml: string };
}

/** Keys that are data: custom attributes by name. */
const freeKeys = ['$.devices[].custom_attributes', '$.custom_attributes'];

export function deviceDocSuite(docFile: string, examples: DeviceDocExamples): void {
  describe.each(systemModes)(`${docFile}: every example (%s)`, (mode) => {
    const sys = useSystem(mode, { organizations: 1 });
    let device: TestDevice;
    const v2 = (rest: string) => `/api/v2/organizations/${sys.org.orgId}/devices${rest}`;
    const get = (path: string) => sys.api.get(path, { token: sys.org.token });

    beforeAll(async () => {
      device = await enrollDevice(sys.api, sys.org, { owner: 'Test User' });
      // The example's device reported its versions and has a custom attribute.
      const reported = await sys.api.request('PATCH', '/device', { bearer: device.secret, json: { os_version: '9', app_identifier: 'com.devicemagic.androidx.forms', app_version: '3.9.12-5' } });
      expect(reported.status).toBe(200);
      const updated = await sys.api.put(`/organizations/${sys.org.orgId}/devices/${device.id}.json`, { token: sys.org.token, json: { device: { custom_attributes: { company_device: 'true' } } } });
      expect(updated.status).toBe(202);
    });

    it('GET the devices: {"devices":[…]} and <devices type="array"> as documented', async () => {
      const json = await get(v2('.json'));
      expect(json.status).toBe(200);
      expect(shapeMismatches(json.json(), docJson(examples.listJson), { freeKeys })).toEqual([]);
      const xml = await get(v2('.xml'));
      expect(xml.status).toBe(200);
      expect(xmlShapeMismatches(xml.text, examples.listXml)).toEqual([]);
    });

    it('GET one device: the bare device, and <device>', async () => {
      const json = await get(v2(`/${device.id}.json`));
      expect(json.status).toBe(200);
      expect(shapeMismatches(json.json(), docJson(examples.showJson), { freeKeys })).toEqual([]);
      const xml = await get(v2(`/${device.id}.xml`));
      expect(xmlShapeMismatches(xml.text, examples.showXml)).toEqual([]);
    });

    if (examples.writes) {
      const writes = examples.writes;
      it('PUT the example bodies (JSON and XML) on the documented path: 202', async () => {
        expect((await sys.api.post(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token, json: ['Unpublished'] })).status).toBe(201);
        const json = await sys.api.put(`/organizations/${sys.org.orgId}/devices/${device.id}.json`, { token: sys.org.token, body: writes.updateJson, contentType: 'application/json' });
        expect([json.status, json.status === 202 ? '' : json.text]).toEqual([202, '']);
        const shown = (await get(v2(`/${device.id}.json`))).json();
        expect(shown).toMatchObject({ owner: 'Andy Warhol', description: 'Eight Elvises', custom_attributes: { city: 'Anchorage', region: 'Central' } });
        expect(shown.groups.map((g: { name: string }) => g.name).sort()).toEqual(['Default', 'Unpublished']);
        const xml = await sys.api.put(`/organizations/${sys.org.orgId}/devices/${device.id}.xml`, { token: sys.org.token, body: writes.updateXml, contentType: 'application/xml' });
        expect([xml.status, xml.status === 202 ? '' : xml.text]).toEqual([202, '']);
      });

      it('POST …/approve and DELETE under /api/v2/organizations/<org>/devices/<id>, as the doc writes them', async () => {
        const pending = await enrollDevice(sys.api, sys.org, { approve: false });
        const approved = await sys.api.post(v2(`/${pending.id}/approve`), { token: sys.org.token });
        expect(approved.status).toBe(200);
        expect((await get(v2(`/${pending.id}.json`))).json().pending_approval).toBe(false);
        const deleted = await sys.api.delete(v2(`/${pending.id}`), { token: sys.org.token });
        expect([deleted.status, deleted.text]).toEqual([200, '']);
        expect((await get(v2(`/${pending.id}.json`))).status).toBe(404);
      });
    }
  });
}
