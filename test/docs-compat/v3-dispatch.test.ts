import { dispatchDocSuite } from './support/dispatch-docs-a';

/**
 * doc/api/v3/dispatch.md (devicemagic/forms_api_docs), example by example: each example below is copied as the
 * doc writes it (trailing commas included); the suite holds Formcast's answers to their
 * shapes and sends each example request. The users' paths are 404 (Formcast has no web users: README).
 */
dispatchDocSuite('doc/api/v3/dispatch.md', {
  authorsJson: String.raw`{
  "authors":[
    {
      "identifier":"iPhone_1234-123-86D82C7F7119",
      "type":"Device",
      "name":"Iphone",
      "email":null
    },
    {
      "identifier":3,
      "type":"User",
      "name":"Fanie",
      "email":"test6@devicemagic.com"
    }
  ]
}`,
  authorsXml: String.raw`<?xml version="1.0" encoding="UTF-8"?>
<authors type="array">
  <author>
    <identifier>iPhone_65AD03C2-FA00-1234-1234-86D82C7F7119</identifier>
    <type>Device</type>
    <name>Iphone</name>
    <email/>
  </author>
  <author>
    <identifier>5</identifier>
    <type>User</type>
    <name>Frikkie</name>
    <email>testuser@devicemagic.com</email>
  </author>
</authors>`,
  listJson: String.raw`{
  "dispatches": [
    {
      "id": 296,
      "name": "Test Dispatch form",
      "namespace": "http://www.devicemagic.com/xforms/1234-123-123?1234-123-123",
      "version": "1.01",
      "organization_id": 7,
      "device_id": 4,
      "description": "Test Dispatch form description",
      "parent_form_id": 270,
      "parent_form_version": "1.02",
      "created_at": "2020-03-12T14:47:22.000Z",
      "updated_at": "2020-03-12T14:47:22.000Z",
      "scheduled_at": "2020-02-10T21:04:40.000Z",
    },
  ]
}`,
  listXml: String.raw`<?xml version="1.0" encoding="UTF-8"?>
<dispatches type="array">
  <dispatch>
    <id type="integer">296</id>
    <name>Test Dispatch form</name>
    <namespace>http://www.devicemagic.com/xforms/1234-123-123?1234-123-123</namespace>
    <version>1.01</version>
    <organization-id type="integer">7</organization-id>
    <device-id type="integer">4</device-id>
    <description>Test Dispatch form description</description>
    <parent-form-id type="integer">198</parent-form-id>
    <parent-form-version>1.00</parent-form-version>
    <created-at type="dateTime">2020-03-13T13:48:58Z</created-at>
    <scheduled-at type="dateTime">2020-03-13T13:48:56Z</scheduled-at>
  </dispatch>
</dispatches>`,
  showJson: String.raw`{
  "id": 296,
  "name": "Test Dispatch form",
  "namespace": "http://www.devicemagic.com/xforms/1234-123-123?1234-123-123",
  "version": "1.01",
  "organization_id": 7,
  "device_id": 4,
  "description": "Test Dispatch form description",
  "parent_form_id": 270,
  "parent_form_version": "1.02",
  "created_at": "2020-03-12T14:47:22.000Z",
  "updated_at": "2020-03-12T14:47:22.000Z",
  "scheduled_at": "2020-02-10T21:04:40.000Z",
}`,
  showWithInputsJson: String.raw`{
  "id": 296,
  "name": "Test Dispatch form",
  "namespace": "http://www.devicemagic.com/xforms/1234-123-123?1234-123-123",
  "version": "1.01",
  "organization_id": 7,
  "device_id": 4,
  "description": "Test Dispatch form description",
  "parent_form_id": 270,
  "parent_form_version": "1.02",
  "created_at": "2020-03-12T14:47:22.000Z",
  "updated_at": "2020-03-12T14:47:22.000Z",
  "scheduled_at": "2020-02-10T21:04:40.000Z",
  "inputs": {
    "Question1": "Answer1",
    "Question2": "Answer2",
  }
}`,
  showXml: String.raw`<?xml version="1.0" encoding="UTF-8"?>
<dispatch>
  <id type="integer">296</id>
  <name>Test Dispatch form</name>
  <namespace>http://www.devicemagic.com/xforms/1234-123-123?1234-123-123</namespace>
  <version>1.01</version>
  <organization-id type="integer">7</organization-id>
  <device-id type="integer">4</device-id>
  <description>Test Dispatch form description</description>
  <parent-form-id type="integer">198</parent-form-id>
  <parent-form-version>1.00</parent-form-version>
  <created-at type="dateTime">2020-03-13T13:48:58Z</created-at>
  <scheduled-at type="dateTime">2020-03-13T13:48:56Z</scheduled-at>
</dispatch>`,
  showWithInputsXml: String.raw`<?xml version="1.0" encoding="UTF-8"?>
<dispatch>
  <id type="integer">296</id>
  <name>Test Dispatch form</name>
  <namespace>http://www.devicemagic.com/xforms/1234-123-123?1234-123-123</namespace>
  <version>1.01</version>
  <organization-id type="integer">7</organization-id>
  <device-id type="integer">4</device-id>
  <description>Test Dispatch form description</description>
  <parent-form-id type="integer">198</parent-form-id>
  <parent-form-version>1.00</parent-form-version>
  <created-at type="dateTime">2020-03-13T13:48:58Z</created-at>
  <scheduled-at type="dateTime">2020-03-13T13:48:56Z</scheduled-at>
  <inputs>
    <Question1>Answer1</Question1>
    <Question2>Answer2</Question2>
  </inputs>
</dispatch>`,
  createJsonPayload: String.raw`{
    "form_namespace": "http://www.devicemagic.com/xforms/a189a8b0-e816-0137-7257-2cde48001122",
    "form_name": "This is optional - you can change this element!",
    "form_description": "This is a sample Push Form",
    "location": "lat=35.7773663, long=-78.63876549999999",
    "address": "227 Fayetteville St Suite 802, Raleigh, NC 27601, USA",
    "scheduled_at": "2020-02-10T23:04:40+02:00",
    "payload": {
        "comments": "Easy, wasn't it?"
    }
}`,
  createXmlPayload: String.raw`<?xml version='1.0'?>
<oneshot xmlns='http://www.w3.org/2002/xforms' xmlns:dm='http://mobileforms.devicemagic.com/xforms' xmlns:h='http://www.w3.org/1999/xhtml' xmlns:xsd='http://www.w3.org/2001/XMLSchema'>
  <dm:form_name>This is optional - you can omit this element</dm:form_name>
  <dm:form_namespace>http://www.devicemagic.com/xforms/demo/2d3698c0-650c-012e-7e8e-12313b079c72</dm:form_namespace>
  <dm:form_description>This is a sample Push Form</dm:form_description>
  <dm:location>lat=35.7773663, long=-78.63876549999999</dm:location>
  <dm:address>227 Fayetteville St Suite 802, Raleigh, NC 27601, USA</dm:address>
  <dm:scheduled_at>2020-02-10T23:04:40+02:00</dm:scheduled_at>
  <comments>Easy, wasn't it?</comments>
</oneshot>`,
  updateJsonPayload: String.raw`{
    "form_namespace": "http://www.devicemagic.com/xforms/a189a8b0-e816-0137-7257-2cde48001122",
    "form_name": "This is optional - you can change this element!",
    "form_description": "This is a sample Push Form",
    "location": "lat=35.7773663, long=-78.63876549999999",
    "address": "227 Fayetteville St Suite 802, Raleigh, NC 27601, USA",
    "scheduled_at": "2020-02-10T23:04:40+02:00",
    "payload": {
        "comments": "Something new!"
    }
}`,
  updateXmlPayload: String.raw`<?xml version='1.0'?>
<oneshot xmlns='http://www.w3.org/2002/xforms' xmlns:dm='http://mobileforms.devicemagic.com/xforms' xmlns:h='http://www.w3.org/1999/xhtml' xmlns:xsd='http://www.w3.org/2001/XMLSchema'>
  <dm:form_name>This is optional - you can omit this element</dm:form_name>
  <dm:form_namespace>http://www.devicemagic.com/xforms/demo/2d3698c0-650c-012e-7e8e-12313b079c72</dm:form_namespace>
  <dm:form_description>This is a sample Push Form</dm:form_description>
  <dm:location>lat=35.7773663, long=-78.63876549999999</dm:location>
  <dm:address>227 Fayetteville St Suite 802, Raleigh, NC 27601, USA</dm:address>
  <dm:scheduled_at>2020-02-10T23:04:40+02:00</dm:scheduled_at>
  <comments>Something new!</comments>
</oneshot>`,
  paged: false,
});
