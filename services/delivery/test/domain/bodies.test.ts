import { XMLParser } from 'fast-xml-parser';
import { jsonBody } from '../../src/domain/json-body';
import { xmlBody } from '../../src/domain/xml-body';
import { submission } from './submission-fixture';

describe('the JSON body', () => {
  it("has the real product's shape: metadata, and each answer under value", () => {
    expect(JSON.parse(jsonBody(submission()))).toEqual({
      metadata: {
        device_id: 'Android_1',
        username: 'Ada',
        submitted_at: '2026-05-04T09:25:49.000Z',
        received_at: '2026-05-04T09:25:50.120Z',
        submission_id: 41,
        form_name: 'Site inspection',
        form_namespace: 'http://formcast.local/xforms/abc',
        form_version: '1.02',
      },
      answers: {
        customer_name: { value: 'Acme & Sons <ltd>' },
        visits: { value: '3' },
        contact: { value: { phone: '555-0100', floor: '2' } },
        parts: {
          value: [
            { part_no: 'A1', qty: '2' },
            { part_no: 'B7', qty: '1' },
          ],
        },
      },
    });
  });
});

describe('the XML body', () => {
  it("is the submission's original XML, with the attributes naming device and form", () => {
    const xml = xmlBody(submission());
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<instance xmlns="http://formcast.local/xforms/abc" xmlns:dm="http://mobileforms.devicemagic.com/xforms"' +
        ' submissionIdentifier="7d3e0d7c-1a57-4b2a-9d8e-3f6c2b1a0e11" submittingDevice="Android_1"' +
        ' writeTime="2026-05-04T09:25:49.000Z" formVersion="1.02" dm:submit_time="2026-05-04T09:25:50.120Z"' +
        ' dm:form="Site inspection" dm:form_id="9" dm:form_version="1.02" dm:submitting_device="Android_1">' +
        '<inputs><customer_name>Acme &amp; Sons &lt;ltd&gt;</customer_name><visits>3</visits>' +
        '<contact><phone>555-0100</phone><floor>2</floor></contact>' +
        '<parts><part_no>A1</part_no><qty>2</qty></parts><parts><part_no>B7</part_no><qty>1</qty></parts>' +
        '</inputs></instance>',
    );
  });

  it('escapes attributes, writes what XML cannot carry as U+FFFD, and leaves submissionIdentifier out when the client gave none', () => {
    const xml = xmlBody(
      submission({
        clientSubmissionId: null,
        formName: 'Say "hi" & <bye>',
        answers: { note: 'bell\u0007 ok', empty: '', __proto_x: 'kept' },
      }),
    );
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(parsed.instance['submissionIdentifier']).toBeUndefined();
    expect(xml).toContain(' xmlns:dm="http://mobileforms.devicemagic.com/xforms" submittingDevice="Android_1" ');
    expect(parsed.instance['dm:form']).toBe('Say "hi" & <bye>');
    expect(parsed.instance.inputs).toEqual({ note: 'bell\uFFFD ok', empty: '', __proto_x: 'kept' });
  });

  it('refuses an answer named as no element can be rather than send a broken document', () => {
    expect(() => xmlBody(submission({ answers: { 'not a name': 'x' } }))).toThrow(/not an XML name/);
  });
});
