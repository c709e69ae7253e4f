import { XMLParser } from 'fast-xml-parser';
import { submissionInstanceXml, type SubmissionInstance } from '../src/submission-instance-xml';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

const submission: SubmissionInstance = {
  formId: 123,
  formName: 'Test Form',
  formNamespace: 'http://formcast.local/xforms/0b6c5bd6-8c36-4d0e-9d4b-0a5b1e8f6f11',
  formVersion: '1.00',
  deviceIdentifier: 'Android_van3',
  submissionIdentifier: '4f1c2a9e-5b0d-4d7e-9a51-2f3c8e6b7d10',
  submittedAt: '2024-05-04T11:25:49.000Z',
  receivedAt: '2024-05-04T11:25:50.250Z',
  answers: { Question1: 'Answer1' },
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false });

describe('submissionInstanceXml', () => {
  it('writes the documented instance on one line, as the product documents it: the attributes in the documented order, the answers in <inputs>', () => {
    expect(submissionInstanceXml(submission)).toBe(
      declaration +
        `<instance xmlns="${submission.formNamespace}" xmlns:dm="http://mobileforms.devicemagic.com/xforms"` +
        ` submissionIdentifier="${submission.submissionIdentifier}" submittingDevice="Android_van3"` +
        ' writeTime="2024-05-04T11:25:49.000Z" formVersion="1.00" dm:submit_time="2024-05-04T11:25:50.250Z"' +
        ' dm:form="Test Form" dm:form_id="123" dm:form_version="1.00" dm:submitting_device="Android_van3">' +
        '<inputs><Question1>Answer1</Question1></inputs></instance>',
    );
  });

  it('writes subforms as nested elements, each group repetition as a repeated element, unanswered as empty, in the order given', () => {
    const xml = submissionInstanceXml({
      ...submission,
      answers: { customer_name: 'Acme', contact: { phone: '555', floor: '4' }, parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }], comments: '' },
    });
    expect(xml).toContain(
      '<inputs><customer_name>Acme</customer_name><contact><phone>555</phone><floor>4</floor></contact>' +
        '<parts><part_no>A-1</part_no></parts><parts><part_no>B-7</part_no><qty>2</qty></parts><comments/></inputs></instance>',
    );
  });

  it('keeps the whitespace of an answer as it is (nothing added between elements)', () => {
    expect(submissionInstanceXml({ ...submission, answers: { note: '  two\nlines\t', next: 'x' } })).toContain('<inputs><note>  two\nlines\t</note><next>x</next></inputs>');
  });

  it('escapes markup in answers and attributes, and replaces characters XML cannot carry with U+FFFD, so the document always parses back', () => {
    const xml = submissionInstanceXml({
      ...submission,
      formName: `Acme's "best" <form> & co\u0000`,
      formNamespace: 'urn:forms?a=1&b=2',
      answers: { note: 'a < b && c > d ]]> "q" \'s', control: 'bell\u0007here', lone: 'x\ud800y', emoji: 'ok 👍' },
    });
    expect(xml).toContain('<note>a &lt; b &amp;&amp; c &gt; d ]]&gt; &quot;q&quot; &apos;s</note>');
    const parsed = parser.parse(xml).instance;
    expect(parsed['@_dm:form']).toBe(`Acme's "best" <form> & co\uFFFD`);
    expect(parsed['@_xmlns']).toBe('urn:forms?a=1&b=2');
    expect(parsed.inputs).toEqual({ note: 'a < b && c > d ]]> "q" \'s', control: 'bell\uFFFDhere', lone: 'x\uFFFDy', emoji: 'ok 👍' });
  });

  it('leaves out submissionIdentifier when the client gave none, keeping every other attribute in order', () => {
    const parsed = parser.parse(submissionInstanceXml({ ...submission, submissionIdentifier: null })).instance;
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
    expect(submissionInstanceXml({ ...submission, answers: {} })).toMatch(/ dm:submitting_device="Android_van3"><inputs\/><\/instance>$/);
  });

  it('refuses an answer name that is not an XML name rather than write a broken document', () => {
    expect(() => submissionInstanceXml({ ...submission, answers: { 'a b': 'x' } })).toThrow(/not an XML name/);
    expect(() => submissionInstanceXml({ ...submission, answers: { group: [{ 'x>y': '1' }] } })).toThrow(/not an XML name/);
  });
});
