import { enrollDevice, type TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Devices: enrollment, enquiry and the devices API (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });

  const devicesPath = (o: TestOrganization, rest = '') => `/organizations/${o.orgId}/devices${rest}`;

  it('enrolls a device pending approval (201) and lists it only once approved', async () => {
    const identifier = `iPhone_C347F8DA-${Date.now()}`;
    const enrolled = await sys.api.post('/devices/enroll', {
      json: { enrollment_code: sys.org.enrollmentCode, identifier, owner: 'Test', description: '', push_token: 'fcm-token-1' },
    });
    expect(enrolled.status).toBe(201);
    const body = enrolled.json();
    expect(body.device).toEqual({
      id: expect.any(Number),
      identifier,
      organization_id: sys.org.orgId,
      owner: 'Test',
      description: '',
      pending_approval: true,
      groups: 'Default',
      custom_attributes: {},
    });
    expect(body.device_secret).toEqual(expect.any(String));
    expect(body.device_secret.length).toBeGreaterThanOrEqual(32);

    const before = await sys.api.get(devicesPath(sys.org, '.json'), { token: sys.org.token });
    expect(before.json().devices.map((d: { id: number }) => d.id)).not.toContain(body.device.id);

    const approved = await sys.api.post(devicesPath(sys.org, `/${body.device.id}/approve`), { token: sys.org.token });
    expect(approved.status).toBe(200);
    expect(approved.json().device.pending_approval).toBe(false);

    const xml = await sys.api.get(devicesPath(sys.org, '.xml'), { token: sys.org.token });
    expect(xml.status).toBe(200);
    expect(xml.text).toContain(
      [
        '  <device>',
        `    <id type="integer">${body.device.id}</id>`,
        `    <identifier>${identifier}</identifier>`,
        `    <organization-id type="integer">${sys.org.orgId}</organization-id>`,
        '    <owner>Test</owner>',
        '    <description nil="true"/>',
        '    <pending-approval type="boolean">false</pending-approval>',
        '    <groups>Default</groups>',
        '    <custom-attributes/>',
        '  </device>',
      ].join('\n'),
    );
    expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<devices type="array">/);
  });

  it('refuses identifiers without a platform word (400), wrong codes (403) and duplicates in the organization (403, as a wrong code)', async () => {
    const bad = await sys.api.post('/devices/enroll', { json: { enrollment_code: sys.org.enrollmentCode, identifier: 'no-platform' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/identifier/);

    const wrongCode = await sys.api.post('/devices/enroll', { json: { enrollment_code: 'nope', identifier: 'Android_abc123' } });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.json().message).toMatch(/enrollment_code/);

    const device = await enrollDevice(sys.api, sys.org);
    const duplicate = await sys.api.post('/devices/enroll', { json: { enrollment_code: sys.org.enrollmentCode, identifier: device.identifier } });
    expect(duplicate.status).toBe(403);
    expect(duplicate.json()).toEqual(wrongCode.json());
  });

  it('shows one device in XML and JSON', async () => {
    const device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    const xml = await sys.api.get(devicesPath(sys.org, `/${device.id}.xml`), { token: sys.org.token });
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<device>\n/);
    expect(xml.text).toContain('<owner>Ada</owner>');
    const json = await sys.api.get(devicesPath(sys.org, `/${device.id}.json`), { token: sys.org.token });
    expect(json.json().device).toMatchObject({ id: device.id, identifier: device.identifier, owner: 'Ada', groups: 'Default' });
  });

  it('updates owner, description and groups by name from XML (202) and JSON', async () => {
    await sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, json: ['Unpublished'] });
    const device = await enrollDevice(sys.api, sys.org);
    const xml = await sys.api.put(devicesPath(sys.org, `/${device.id}`), {
      token: sys.org.token,
      xml: '<device><owner>Grace</owner><description>Van 7</description><groups>Default,Unpublished</groups></device>',
    });
    expect(xml.status).toBe(202);
    expect(xml.text).toContain('<owner>Grace</owner>');
    expect(xml.text).toContain('<description>Van 7</description>');
    expect(xml.text).toContain('<groups>Default,Unpublished</groups>');

    const json = await sys.api.put(devicesPath(sys.org, `/${device.id}.json`), { token: sys.org.token, json: { device: { groups: 'Unpublished' } } });
    expect(json.status).toBe(202);
    expect(json.json().device).toMatchObject({ owner: 'Grace', description: 'Van 7', groups: 'Unpublished' });

    const groups = (await sys.api.get(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token })).json().groups;
    const byName = Object.fromEntries(groups.map((g: { name: string; device_ids: number[] }) => [g.name, g.device_ids]));
    expect(byName['Unpublished']).toContain(device.id);
    expect(byName['Default']).not.toContain(device.id);
  });

  it('refuses unknown group names and wrong types with 400, changing nothing', async () => {
    const device = await enrollDevice(sys.api, sys.org, { owner: 'Linus' });
    const unknownGroup = await sys.api.put(devicesPath(sys.org, `/${device.id}`), {
      token: sys.org.token,
      json: { device: { owner: 'Changed', groups: 'Default,Nowhere' } },
    });
    expect(unknownGroup.status).toBe(400);
    expect(unknownGroup.text).toMatch(/Nowhere/);
    const wrongType = await sys.api.put(devicesPath(sys.org, `/${device.id}`), { token: sys.org.token, json: { device: { owner: 42 } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).toMatch(/owner/);
    const shown = (await sys.api.get(devicesPath(sys.org, `/${device.id}.json`), { token: sys.org.token })).json().device;
    expect(shown).toMatchObject({ owner: 'Linus', groups: 'Default' });
  });

  it('deletes a device (200, empty body); afterwards and for unknown ids, 404', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const res = await sys.api.delete(devicesPath(sys.org, `/${device.id}`), { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await sys.api.get(devicesPath(sys.org, `/${device.id}.json`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.delete(devicesPath(sys.org, `/${device.id}`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.post(devicesPath(sys.org, '/987654/approve'), { token: sys.org.token })).status).toBe(404);
  });

  it("answers 404 for another organization's devices", async () => {
    const theirs = await enrollDevice(sys.api, sys.orgs[1], { owner: 'Theirs' });
    expect((await sys.api.get(devicesPath(sys.org, `/${theirs.id}.json`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.put(devicesPath(sys.org, `/${theirs.id}`), { token: sys.org.token, json: { device: { owner: 'Mine' } } })).status).toBe(404);
    expect((await sys.api.delete(devicesPath(sys.org, `/${theirs.id}`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(devicesPath(sys.orgs[1], '.xml'), { token: sys.org.token })).status).toBe(404);
    const stillTheirs = await sys.api.get(devicesPath(sys.orgs[1], `/${theirs.id}.json`), { token: sys.orgs[1].token });
    expect(stillTheirs.json().device.owner).toBe('Theirs');
  });
});
