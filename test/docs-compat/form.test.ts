import { docJson, shapeMismatches, xmlShapeMismatches } from '../support/doc-shape';
import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';

/**
 * doc/api/form.md (devicemagic/forms_api_docs), example by example: each example below is
 * copied as the doc writes it; the suite holds Formcast's answers to their shapes and sends
 * each example request, in every mode, the XForms ones (the definition as `<h:html>`, a
 * create or update from XForms) included. Every stored version of form.md has these examples.
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

const definitionXml = String.raw`<?xml version="1.03"?>
<h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns:dm="http://www.devicemagic.com/XMLSchemaDataTypes" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:ev="http://www.w3.org/2001/xml-events" xmlns="http://www.w3.org/2002/xforms">
  <h:head>
    <h:title>Untitled Form</h:title>
    <model>
      <instance xmlns="http://www.devicemagic.com/xforms/ns">
        <inputs>
          <Untitled_Question/>
        </inputs>
      </instance>
    </model>
  </h:head>
  <h:body>
    <input ref="Untitled_Question">
      <label>Untitled Question</label>
    </input> 
  </h:body>
</h:html>`;

const createXml = String.raw`<h:html
  xmlns='http://www.w3.org/2002/xforms'
  xmlns:dm='http://www.devicemagic.com/XMLSchemaDataTypes'
  xmlns:ev='http://www.w3.org/2001/xml-events'
  xmlns:h='http://www.w3.org/1999/xhtml'
  xmlns:xsd='http://www.w3.org/2001/XMLSchema'>
  <h:head>
      <h:title>Dummy Form</h:title>
      <model>
          <instance xmlns='http://www.devicemagic.com/xforms/dummy_form'>
              <untitled_form_1>
                  <alpha/>
                  <bravo/>
              </untitled_form_1>
          </instance>
      </model>
  </h:head>
  <h:body>
      <input ref='alpha'>
          <label>Alpha</label>
      </input>
      <input ref='bravo'>
          <label>Bravo</label>
      </input>
  </h:body>
</h:html> `;

const createdXml = String.raw`<form>
    <id>42</id>
    <namespace>http://www.devicemagic.com/xforms/dummy_form</namespace>
    <name>Dummy Form</name>
</form>`;

const updateXml = String.raw`<h:html
  xmlns='http://www.w3.org/2002/xforms'
  xmlns:dm='http://www.devicemagic.com/XMLSchemaDataTypes'
  xmlns:ev='http://www.w3.org/2001/xml-events'
  xmlns:h='http://www.w3.org/1999/xhtml'
  xmlns:xsd='http://www.w3.org/2001/XMLSchema'>
  <h:head>
      <h:title>Some Form</h:title>
      <model>
          <instance xmlns='http://www.devicemagic.com/xforms/dummy_form'>
              <untitled_form_1>
                  <alpha/>
                  <bravo/>
              </untitled_form_1>
          </instance>
      </model>
  </h:head>
  <h:body>
      <input ref='alpha'>
          <label>Alpha</label>
      </input>
      <input ref='bravo'>
          <label>Bravo</label>
      </input>
  </h:body>
</h:html>`;

const updatedXml = String.raw`<form>
    <id>42</id>
    <namespace>http://www.devicemagic.com/xforms/dummy_form</namespace>
    <name>Some Form</name>
    <version>1.1</version>
</form>`;

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

  it('GET the definition as XForms (.xml): the documented <h:html> shape, of the current version and an earlier one', async () => {
    for (const query of ['', '?version=1.00']) {
      const xml = await sys.api.get(forms(`/${formId}.xml${query}`), token());
      expect([query, xml.status]).toEqual([query, 200]);
      expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
      // The instance's elements are the form's questions: data, not shape.
      expect(xmlShapeMismatches(xml.text, definitionXml, { freeElements: ['/h:html/h:head/model/instance/inputs'] })).toEqual([]);
    }
  });

  it('POST the XForms example: 201 with the documented <form>; PUT the XForms example: 202 with <form> and its version', async () => {
    const created = await sys.api.post(forms('.xml'), { ...token(), xml: createXml });
    expect(created.status).toBe(201);
    expect(xmlShapeMismatches(created.text, createdXml)).toEqual([]);
    const id = Number(/<id[^>]*>(\d+)<\/id>/.exec(created.text)?.[1]);
    const definition = (await sys.api.get(forms(`/${id}.json`), token())).json();
    expect(definition).toMatchObject({ title: 'Dummy Form', namespace: 'http://www.devicemagic.com/xforms/dummy_form', children: [{ identifier: 'alpha', title: 'Alpha' }, { identifier: 'bravo', title: 'Bravo' }] });
    const updated = await sys.api.put(forms(`/${id}.xml`), { ...token(), xml: updateXml });
    expect(updated.status).toBe(202);
    expect(xmlShapeMismatches(updated.text, updatedXml)).toEqual([]);
    expect((await sys.api.get(forms(`/${id}.json`), token())).json()).toMatchObject({ title: 'Some Form', version: '1.01' });
    // The documented XML definition, sent as a new form, is taken too (its instance in another namespace).
    expect((await sys.api.post(forms('.xml'), { ...token(), xml: definitionXml })).status).toBe(201);
  });
});
