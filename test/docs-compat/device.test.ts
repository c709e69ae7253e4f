import { deviceDocSuite } from './support/device-docs-a';

/**
 * doc/api/device.md (devicemagic/forms_api_docs), example by example: each example below is copied as the
 * doc writes it; the suite holds Formcast's answers to their shapes (the show is the bare
 * device) and sends each example request. Its approve and delete paths under /api/v2, and its update bodies, too.
 */
deviceDocSuite('doc/api/device.md', {
  listJson: String.raw`{
  "devices": [
    {
      "id": 4,
      "identifier": "Android_12345678-1234-1234-1234-123412341234",
      "os_version": "9",
      "app_identifier": "com.devicemagic.androidx.forms",
      "app_version": "3.9.12-5",
      "organization_id": 7,
      "owner": "Test User",
      "description": null,
      "pending_approval": false,
      "groups": [
        {
          "name": "Default"
        }
      ],
      "custom_attributes": {
        "company_device": "true"
      }
    },
    {
      "id": 5,
      "identifier": "Android_87654321-1234-1234-1234-123412341234",
      "os_version": "10",
      "app_identifier": "com.devicemagic.androidx.forms",
      "app_version": "3.9.12-5",
      "organization_id": 7,
      "owner": "Test User 2",
      "description": null,
      "pending_approval": false,
      "groups": [
        {
          "name": "Default"
        }
      ],
      "custom_attributes": {}
    }
  ]
}`,
  listXml: String.raw`<devices type="array">
  <device>
    <id>4</id>
    <identifier>Android_12345678-1234-1234-1234-123412341234</identifier>
    <os_version>9</os_version>
    <app_identifier>com.devicemagic.androidx.forms</app_identifier>
    <app_version>3.9.12-5</app_version>
    <organization_id>7</organization_id>
    <owner>Test User</owner>
    <description></description>
    <pending_approval>false</pending_approval>
    <groups type="array">
      <name>Default</name>
    </groups>
    <custom_attributes type="array">
      <custom_attribute>
        <key>company device</key>
        <value>true</value>
      </custom_attribute>
    </custom_attributes>
  </device>
  <device>
    <id>5</id>
    <identifier>Android_87654321-1234-1234-1234-123412341234</identifier>
    <os_version>10</os_version>
    <app_identifier>com.devicemagic.androidx.forms</app_identifier>
    <app_version>3.9.12-5</app_version>
    <organization_id>7</organization_id>
    <owner>Test User 2</owner>
    <description/>
    <pending_approval>false</pending_approval>
    <groups type="array">
      <name>Default</name>
    </groups>
    <custom_attributes type="array"></custom_attributes>
  </device>
</devices>`,
  showJson: String.raw`{
  "id": 4,
  "identifier": "Android_12345678-1234-1234-1234-123412341234",
  "os_version": "9",
  "app_identifier": "com.devicemagic.androidx.forms",
  "app_version": "3.9.12-5",
  "organization_id": 7,
  "owner": "Test User",
  "description": "",
  "pending_approval": false,
  "groups": [
    {
      "name": "Default"
    }
  ],
  "custom_attributes": {
    "company_device": "true"
  }
}`,
  showXml: String.raw`<device>
  <id>4</id>
  <identifier>Android_9a4e1df8-1fd5-44c2-b67a-1dc0f2ee8752</identifier>
  <os_version>9</os_version>
  <app_identifier>com.devicemagic.androidx.forms</app_identifier>
  <app_version>3.9.12-5</app_version>
  <organization_id>7</organization_id>
  <owner>AshAndroid</owner>
  <description></description>
  <pending_approval>false</pending_approval>
  <groups type="array">
    <name>Default</name>
  </groups>
  <custom_attributes type="array">
    <custom_attribute>
      <key>is_awesome</key>
      <value>this is try</value>
    </custom_attribute>
  </custom_attributes>
</device>`,
  writes: {
    updateJson: String.raw`{  
    "device":{  
        "owner":"Andy Warhol",
        "description":"Eight Elvises",
        "groups":"Default,Unpublished",
        "custom_attributes":{
            "city": "Anchorage",
            "region": "Central"
        }
    }
}`,
    updateXml: String.raw`<device>
    <owner>Andy Warhol</owner>
    <description>Eight Elvises</description>
    <groups>Default,Unpublished</groups>
</device>`,
  },
});
