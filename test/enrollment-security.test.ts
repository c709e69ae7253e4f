import { waitFor } from '@formcast/testing';
import type { ApiClient } from './support/api-client';
import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const enroll = (sys: { api: ApiClient }, enrollmentCode: string, identifier: string) =>
  sys.api.post('/devices/enroll', { json: { enrollment_code: enrollmentCode, identifier, owner: '', description: '', push_token: null } });

describe.each(systemModes)('Enrollment security: identifiers per organization, hashed and rotatable codes (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });
  let orgA: TestOrganization;
  let orgB: TestOrganization;

  beforeAll(() => {
    [orgA, orgB] = sys.orgs;
  });

  const badge = async (org: TestOrganization, device: string | number): Promise<number> => {
    const res = await sys.api.get(`/clients/${encodeURIComponent(String(device))}/badge.json`, { token: org.token });
    expect(res.status).toBe(200);
    return res.json().badge;
  };

  describe('one identifier in two organizations', () => {
    const identifier = `Android_B0-${process.pid}-${mode}`;
    let deviceA: TestDevice;
    let deviceB: TestDevice;

    beforeAll(async () => {
      deviceA = await enrollDevice(sys.api, orgA, { identifier, owner: 'Ada in A' });
      deviceB = await enrollDevice(sys.api, orgB, { identifier, owner: 'Bob in B' });
    });

    it('enrolls in both (201 each), and each organization sees only its own device', async () => {
      expect(deviceB.id).not.toBe(deviceA.id);
      for (const [org, device, owner] of [
        [orgA, deviceA, 'Ada in A'],
        [orgB, deviceB, 'Bob in B'],
      ] as const) {
        const list = await sys.api.get(`/organizations/${org.orgId}/devices.json`, { token: org.token });
        expect(list.status).toBe(200);
        const mine = (list.json().devices as Array<{ id: number; identifier: string; owner: string; organization_id: number }>).filter(
          (d) => d.identifier === identifier,
        );
        expect(mine).toEqual([expect.objectContaining({ id: device.id, owner, organization_id: org.orgId })]);
        const one = await sys.api.get(`/organizations/${org.orgId}/devices/${device.id}.json`, { token: org.token });
        expect(one.json().device).toMatchObject({ id: device.id, owner });
      }
      const others = await sys.api.get(`/organizations/${orgA.orgId}/devices/${deviceB.id}.json`, { token: orgA.token });
      expect(others.status).toBe(404);
    });

    it('still refuses the identifier a second time in the same organization, answering as a wrong code does (403)', async () => {
      const again = await enroll(sys, orgA.enrollmentCode, identifier);
      const wrong = await enroll(sys, 'not-the-code', identifier);
      expect(again.status).toBe(403);
      expect(again.headers.get('content-type')).toBe(wrong.headers.get('content-type'));
      expect(again.text).toBe(wrong.text);
    });

    it('pushes by identifier to the pushing organization\'s device only: B\'s badge stays 0', async () => {
      const template = await createTemplate(sys.api, orgA, inspectionForm);
      const pushed = await pushJson(sys.api, orgA, identifier, { form_namespace: template.namespace, payload: { customer_name: 'Only A' } });
      expect(pushed.status).toBe(202);
      const oneshotId: number = pushed.json().oneshot_list[0].id;

      await waitFor(async () => (await badge(orgA, identifier)) === 1, { timeoutMs: 10_000 });
      expect(await badge(orgA, deviceA.id)).toBe(1);
      expect(await badge(orgB, identifier)).toBe(0);

      const listedA = await sys.api.get(`/clients/${encodeURIComponent(identifier)}/oneshots.json`, { token: orgA.token });
      expect((listedA.json() as Array<{ id: number }>).map((o) => o.id)).toEqual([oneshotId]);
      const listedB = await sys.api.get(`/clients/${encodeURIComponent(identifier)}/oneshots.json`, { token: orgB.token });
      expect(listedB.status).toBe(200);
      expect(listedB.json()).toEqual([]);

      const onDeviceA = await sys.api.get(`/device/oneshots/${oneshotId}`, { bearer: deviceA.secret });
      expect(onDeviceA.status).toBe(200);
      expect(onDeviceA.json().oneshot).toMatchObject({ payload: { customer_name: 'Only A' } });
      expect((await sys.api.get(`/device/oneshots/${oneshotId}`, { bearer: deviceB.secret })).status).toBe(404);
      // B's template namespace does not exist: B cannot push with A's, whatever the device.
      expect((await pushJson(sys.api, orgB, identifier, { form_namespace: template.namespace, payload: {} })).status).toBe(400);
      expect(await badge(orgB, identifier)).toBe(0);
    });
  });

  describe('enrollment codes', () => {
    it('enrolls with the code shown at creation; after a rotation the old code is refused as a wrong one, the new one enrolls', async () => {
      const wrongCode = await enroll(sys, 'not-a-code', `Android_wrong-${process.pid}`);
      expect(wrongCode.status).toBe(403);

      const before = await enroll(sys, orgA.enrollmentCode, `Android_before-${process.pid}-${mode}`);
      expect(before.status).toBe(201);

      const rotated = await sys.api.post(`/admin/organizations/${orgA.orgId}/enrollment_code`, { bearer: sys.adminToken });
      expect(rotated.status).toBe(201);
      expect(rotated.json()).toEqual({ organization_id: orgA.orgId, enrollment_code: expect.any(String) });
      const newCode: string = rotated.json().enrollment_code;
      expect(newCode).not.toBe(orgA.enrollmentCode);
      expect(newCode.length).toBeGreaterThanOrEqual(16);

      const oldCode = await enroll(sys, orgA.enrollmentCode, `Android_old-${process.pid}-${mode}`);
      expect(oldCode.status).toBe(wrongCode.status);
      expect(oldCode.text).toBe(wrongCode.text);

      const after = await enroll(sys, newCode, `Android_after-${process.pid}-${mode}`);
      expect(after.status).toBe(201);
      expect(after.json().device.organization_id).toBe(orgA.orgId);
      // A device enrolled with the old code stays enrolled.
      const stays = await sys.api.get(`/organizations/${orgA.orgId}/devices/${before.json().device.id}.json`, { token: orgA.token });
      expect(stays.status).toBe(200);
      // Another organization's code is untouched.
      expect((await enroll(sys, orgB.enrollmentCode, `Android_b-${process.pid}-${mode}`)).status).toBe(201);
      orgA = { ...orgA, enrollmentCode: newCode };
    });

    it('rotates only with the admin token, and only for an organization that exists', async () => {
      const path = `/admin/organizations/${orgB.orgId}/enrollment_code`;
      expect((await sys.api.post(path)).status).toBe(401);
      expect((await sys.api.post(path, { token: orgB.token })).status).toBe(401);
      expect((await sys.api.post(path, { bearer: orgB.token })).status).toBe(401);
      expect((await sys.api.post('/admin/organizations/987654/enrollment_code', { bearer: sys.adminToken })).status).toBe(404);
      expect((await sys.api.post('/admin/organizations/abc/enrollment_code', { bearer: sys.adminToken })).status).toBe(404);
      expect((await enroll(sys, orgB.enrollmentCode, `Android_still-${process.pid}-${mode}`)).status).toBe(201);
    });

    it('shows the code in no listing', async () => {
      const codes = [orgA.enrollmentCode, orgB.enrollmentCode];
      const org = orgA;
      const reads = [
        await sys.api.get(`/admin/organizations/${org.orgId}/tokens`, { bearer: sys.adminToken }),
        await sys.api.get(`/organizations/${org.orgId}/devices.json`, { token: org.token }),
        await sys.api.get(`/organizations/${org.orgId}/devices.xml`, { token: org.token }),
        await sys.api.get(`/organizations/${org.orgId}/groups.json`, { token: org.token }),
        await sys.api.get(`/organizations/${org.orgId}/groups.xml`, { token: org.token }),
        await sys.api.get(`/organizations/${org.orgId}/forms.json`, { token: org.token }),
      ];
      for (const res of reads) {
        expect(res.status).toBe(200);
        for (const code of codes) expect(res.text).not.toContain(code);
        expect(res.text).not.toMatch(/enrollment_code/);
      }
    });
  });

  describe('empty file_data', () => {
    const listIds = async (org: TestOrganization): Promise<number[]> =>
      ((await sys.api.get('/api/resources.json', { token: org.token })).json().resources as Array<{ id: number }>).map((r) => r.id);

    it('is refused with 400 naming file_data, as JSON or as a form, on create and on replace, creating nothing', async () => {
      const org = orgB;
      const before = await listIds(org);
      const emptyJson = await sys.api.post('/api/resources.json', {
        token: org.token,
        json: { resource: { description: 'empty', file: { file_name: 'e.txt', content_type: 'text/plain', file_data: '' } } },
      });
      expect(emptyJson.status).toBe(400);
      expect(emptyJson.text).toMatch(/file_data/);

      const emptyForm = await sys.api.post('/api/resources.json', {
        token: org.token,
        body: 'resource[description]=empty&resource[file][file_name]=e.txt&resource[file][content_type]=text%2Fplain&resource[file][file_data]=',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(emptyForm.status).toBe(400);
      expect(emptyForm.text).toMatch(/file_data/);
      expect(await listIds(org)).toEqual(before);

      const created = await sys.api.post('/api/resources.json', {
        token: org.token,
        json: { resource: { description: 'kept', file: { file_name: 'k.txt', content_type: 'text/plain', file_data: Buffer.from('kept').toString('base64') } } },
      });
      expect(created.status).toBe(201);
      const id: number = created.json().resource.id;

      const replaced = await sys.api.put(`/api/resources/${id}.json`, {
        token: org.token,
        json: { resource: { file: { file_name: 'e.txt', content_type: 'text/plain', file_data: '' } } },
      });
      expect(replaced.status).toBe(400);
      expect(replaced.text).toMatch(/file_data/);
      const replacedByForm = await sys.api.put(`/api/resources/${id}.json`, {
        token: org.token,
        body: 'resource[file][file_name]=e.txt&resource[file][content_type]=text%2Fplain&resource[file][file_data]=',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(replacedByForm.status).toBe(400);

      const download = await sys.api.get(`/api/resources/${id}`, { token: org.token });
      expect(download.text).toBe('kept');
      expect((await sys.api.get(`/api/resources/${id}/describe.json`, { token: org.token })).json().resource.version).toBe(0);
    });
  });
});
