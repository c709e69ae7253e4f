import { XMLParser } from 'fast-xml-parser';
import type { SubmissionInstanceView } from '@formcast/contracts';
import { renderSubmissionInstanceXml } from '../../src/render/submission-instance-xml';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

const submission: SubmissionInstanceView = {
  id: 12,
  form_id: 123,
  form_name: 'Test Form',
  form_namespace: 'http://formcast.local/xforms/0b6c5bd6-8c36-4d0e-9d4b-0a5b1e8f6f11',
  form_version: '1.00',
  device_identifier: 'Android_van3',
  submission_identifier: '4f1c2a9e-5b0d-4d7e-9a51-2f3c8e6b7d10',
  submitted_at: '2024-05-04T11:25:49.000Z',
  received_at: '2024-05-04T11:25:50.250Z',
  answers: { Question1: 'Answer1' },
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false });

describe('renderSubmissionInstanceXml', () => {
  it('writes the documented instance: the attributes in the documented order, the answers in <inputs>', () => {
    expect(renderSubmissionInstanceXml(submission)).toBe(
      declaration +
        [
          `<instance xmlns="${submission.form_namespace}" xmlns:dm="http://mobileforms.devicemagic.com/xforms"` +
            ` submissionIdentifier="${submission.submission_identifier}" submittingDevice="Android_van3"` +
            ' writeTime="2024-05-04T11:25:49.000Z" formVersion="1.00" dm:submit_time="2024-05-04T11:25:50.250Z"' +
            ' dm:form="Test Form" dm:form_id="123" dm:form_version="1.00" dm:submitting_device="Android_van3">',
          '  <inputs>',
          '    <Question1>Answer1</Question1>',
          '  </inputs>',
          '</instance>',
          '',
        ].join('\n'),
    );
  });

  it('writes subforms as nested elements, each group repetition as a repeated element, unanswered as empty, in the order given', () => {
    const xml = renderSubmissionInstanceXml({
      ...submission,
      answers: { customer_name: 'Acme', contact: { phone: '555', floor: '4' }, parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }], comments: '' },
    });
    expect(xml).toContain(
      [
        '  <inputs>',
        '    <customer_name>Acme</customer_name>',
        '    <contact>',
        '      <phone>555</phone>',
        '      <floor>4</floor>',
        '    </contact>',
        '    <parts>',
        '      <part_no>A-1</part_no>',
        '    </parts>',
        '    <parts>',
        '      <part_no>B-7</part_no>',
        '      <qty>2</qty>',
        '    </parts>',
        '    <comments/>',
        '  </inputs>',
      ].join('\n'),
    );
  });

  it('escapes markup in answers and attributes, and replaces characters XML cannot carry, so the document always parses back', () => {
    const xml = renderSubmissionInstanceXml({
      ...submission,
      form_name: `Acme's "best" <form> & co`,
      form_namespace: 'urn:forms?a=1&b=2',
      answers: { note: 'a < b && c > d ]]> "q" \'s', control: 'bell\u0007here', emoji: 'ok 👍' },
    });
    expect(xml).toContain('<note>a &lt; b &amp;&amp; c &gt; d ]]&gt; &quot;q&quot; &apos;s</note>');
    const parsed = parser.parse(xml).instance;
    expect(parsed['@_dm:form']).toBe(`Acme's "best" <form> & co`);
    expect(parsed['@_xmlns']).toBe('urn:forms?a=1&b=2');
    expect(parsed.inputs).toEqual({ note: 'a < b && c > d ]]> "q" \'s', control: 'bell\uFFFDhere', emoji: 'ok 👍' });
  });

  it('leaves out submissionIdentifier when the client gave none, keeping every other attribute', () => {
    const parsed = parser.parse(renderSubmissionInstanceXml({ ...submission, submission_identifier: null })).instance;
    expect(parsed['@_submissionIdentifier']).toBeUndefined();
    expect(Object.keys(parsed).filter((key) => key.startsWith('@_'))).toEqual([
      '@_xmlns',
      '@_xmlns:dm',
      '@_submittingDevice',
      '@_writeTime',
      '@_formVersion',
      '@_dm:submit_time',
      '@_dm:form',
      '@_dm:form_id',
      '@_dm:form_version',
      '@_dm:submitting_device',
    ]);
  });

  it('writes a submission without answers as an empty <inputs/>', () => {
    expect(renderSubmissionInstanceXml({ ...submission, answers: {} })).toContain('>\n  <inputs/>\n</instance>\n');
  });

  it('refuses an answer name that is not an XML name rather than write a broken document', () => {
    expect(() => renderSubmissionInstanceXml({ ...submission, answers: { 'a b': 'x' } })).toThrow(/not an XML name/);
  });
});
