import { docJson, shapeMismatches, xmlShapeMismatches } from '../support/doc-shape';
import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';

/**
 * doc/api/form.md (devicemagic/forms_api_docs), example by example: each example below is
 * copied as the doc writes it; the suite holds Formcast's answers to their shapes and sends
 * each example request, in every mode. The XForms examples (the definition as `<h:html>`, a
 * create or update from XForms) are not built yet: listed as todo.
 */

const listJson = String.raw`{
  "forms": 
     [ {"id":2,
        "namespace":"http://www.devicemagic.com/xforms/4859c760-d9eb-012d-2595-123139016cf2", 
        "version":"1.04", 
        "description":"Description of form", 
        "group":"Unpublished"},
       {"id":1, 
        "namespace": "http://www.devicemagic.com/xforms/simple", 
        "version":"1.0", 
        "description":"Description of form", 
        "group":"Unpublished"}
     ]
}`;

const listXml = String.raw`<?xml version="1.0"?>
<forms>
  <form>
    <id>2</id>
    <name>Sample Form Two</name>
    <namespace>http://www.devicemagic.com/xforms/4859c760-d9eb-012d-2595-123139016cf2</namespace>
    <version>1.04</version>
    <description>Description of form</description>
    <group>Unpublished</group>
   </form>
   <form>
     <id>1</id>
     <name>Simple Form</name>
     <namespace>http://www.devicemagic.com/xforms/simple</namespace>
     <version>1.0</version>
     <description>Description of form</description>
     <group>Unpublished</group>
  </form>
</forms>`;

const definitionJson = String.raw`{
  "type": "root",
  "children": [{
    "identifier": "Untitled_Question",
    "title": "Untitled Question",
    "autoIdentifier": true,
    "type": "text"
  }],
  "title": "Untitled Form",
  "namespace": "http://www.devicemagic.com/xforms/simple", 
  "version":"1.0", 
  "description":"Description of form", 
  "group":"Unpublished"
}`;

const createBody = String.raw`{
    "type": "root",
    "children": [
    {
        "identifier": "Free_Text_Question",
        "title": "Free Text Question",
        "autoIdentifier": true,
        "type": "text"
    },
    {
        "identifier": "Sketch_Question",
        "title": "Sketch Question",
        "autoIdentifier": true,
        "type": "sketch"
    } ],
    "title": "Dummy Form",
    "description": "Testing sample"
}   `;

const createdJson = String.raw`{
    "id": 129,
    "namespace": "http://www.devicemagic.com/xforms/dummy_sample",
    "name": "Test Form"
}`;

const updatedJson = String.raw`{
    "id": 129,
    "namespace": "http://www.devicemagic.com/xforms/dummy_sample",
    "name": "Test Form",
    "version": "1.1"
}`;

const propertiesJson = String.raw`{
    "group": "Unpublished"
}`;

const propertiesXml = String.raw`<form_properties>
    <group>Unpublished</group>
</form_properties>`;

describe.each(systemModes)('doc/api/form.md: every example (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1 });
  const forms = (rest = '') => `/organizations/${sys.org.orgId}/forms${rest}`;
  const token = () => ({ token: sys.org.token });
  let formId: number;

  beforeAll(async () => {
    expect((await sys.api.post(`/organizations/${sys.org.orgId}/groups.json`, { ...token(), json: ['Unpublished'] })).status).toBe(201);
    const created = await sys.api.post(forms('.json'), { ...token(), body: createBody, contentType: 'application/json' });
    expect(created.status).toBe(201);
    formId = created.json().id;
  });

  it('POST create with the example body: 201 with the documented shape', async () => {
    const created = await sys.api.post(forms('.json'), { ...token(), body: createBody, contentType: 'application/json' });
    expect(created.status).toBe(201);
    expect(shapeMismatches(created.json(), docJson(createdJson))).toEqual([]);
  });

  it('POST the properties, JSON and XML examples: 200', async () => {
    const json = await sys.api.post(forms(`/${formId}/properties.json`), { ...token(), body: propertiesJson, contentType: 'application/json' });
    expect(json.status).toBe(200);
    const xml = await sys.api.post(forms(`/${formId}/properties.xml`), { ...token(), body: propertiesXml, contentType: 'application/xml' });
    expect(xml.status).toBe(200);
  });

  it('GET the list: the documented JSON and XML shapes', async () => {
    const json = await sys.api.get(forms('.json'), token());
    expect(json.status).toBe(200);
    expect(shapeMismatches(json.json(), docJson(listJson))).toEqual([]);
    const xml = await sys.api.get(forms('.xml'), token());
    expect(xml.status).toBe(200);
    expect(xmlShapeMismatches(xml.text, listXml)).toEqual([]);
  });

  it('GET the definition (and ?version=): the documented JSON shape', async () => {
    for (const query of ['', '?version=1.00', '?version=1']) {
      const json = await sys.api.get(forms(`/${formId}.json${query}`), token());
      expect([query, json.status]).toEqual([query, 200]);
      expect(shapeMismatches(json.json(), docJson(definitionJson))).toEqual([]);
    }
  });

  it('PUT update with the example body: 202 with the documented shape; DELETE: 200', async () => {
    const updated = await sys.api.put(forms(`/${formId}.json`), { ...token(), body: createBody, contentType: 'application/json' });
    expect(updated.status).toBe(202);
    expect(shapeMismatches(updated.json(), docJson(updatedJson))).toEqual([]);
    const other = (await sys.api.post(forms('.json'), { ...token(), body: createBody, contentType: 'application/json' })).json().id;
    const deleted = await sys.api.delete(forms(`/${other}`), token());
    expect([deleted.status, deleted.text]).toEqual([200, '']);
  });

  it('PUT lock and unlock: 200; a failure gives its reason in the Message header', async () => {
    expect((await sys.api.put(`/api/v3/forms/${formId}/lock`, token())).status).toBe(200);
    const refused = await sys.api.put(forms(`/${formId}.json`), { ...token(), body: createBody, contentType: 'application/json' });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('message')).toMatch(/is locked/);
    expect((await sys.api.put(`/api/v3/forms/${formId}/unlock`, token())).status).toBe(200);
  });

  it.todo('GET the definition as XForms (.xml, <h:html>): not built yet');
  it.todo('POST and PUT a definition as XForms (<h:html>): not built yet');
});
