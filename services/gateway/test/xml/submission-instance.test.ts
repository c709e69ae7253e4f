import { AppError } from '@formcast/platform';
import { parseXml } from '../../src/xml/parse-xml';
import { readSubmissionInstance } from '../../src/xml/submission-instance';

const read = (xml: string) => readSubmissionInstance(parseXml(xml));
const refused = (message: string) => new AppError('invalid', message);

describe('readSubmissionInstance', () => {
  it('reads the documented payload: the form by its namespace, the client id, each child an answer', () => {
    const xml = `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='http://formcast.local/xforms/abc' submissionIdentifier='0b6f-1'>
      <customer_name>Acme &amp; Sons</customer_name><visits>007</visits><comments/></instance>`;
    expect(read(xml)).toEqual({
      formNamespace: 'http://formcast.local/xforms/abc',
      submissionIdentifier: '0b6f-1',
      answers: { customer_name: 'Acme & Sons', visits: '007', comments: '' },
    });
  });

  it('nests subforms, lists repeated elements, ignores attributes, and takes a root of any prefix', () => {
    const xml = `<i:instance xmlns:i="urn:x" xmlns="urn:form">
      <contact kind="x"><phone>123</phone></contact>
      <parts><part_no>A1</part_no></parts><parts><part_no>B2</part_no><qty>2</qty></parts>
    </i:instance>`;
    expect(read(xml)).toEqual({
      formNamespace: 'urn:form',
      submissionIdentifier: null,
      answers: { contact: { phone: '123' }, parts: [{ part_no: 'A1' }, { part_no: 'B2', qty: '2' }] },
    });
  });

  it('never makes a __proto__ answer: the parser refuses the name', () => {
    expect(() => read('<instance xmlns="urn:form"><__proto__>x</__proto__></instance>')).toThrow(/^Malformed XML: .*__proto__/);
  });

  it('refuses another root, a missing namespace, an empty client id and prefixed answers', () => {
    expect(() => read('<oneshot xmlns="urn:form"/>')).toThrow(refused('XML root element must be <instance>'));
    expect(() => read('<instance><a>1</a></instance>')).toThrow(refused("instance: xmlns, the form's namespace, is required"));
    expect(() => read('<instance xmlns="urn:form" submissionIdentifier=" "/>')).toThrow(
      refused('instance: submissionIdentifier, when given, must not be empty'),
    );
    expect(() => read('<instance xmlns="urn:form" xmlns:o="urn:o"><contact><o:phone>1</o:phone></contact></instance>')).toThrow(
      refused('instance.contact: <o:phone> is not a question of the form (its elements take no prefix)'),
    );
  });

  it('reads an empty instance as no answers', () => {
    expect(read('<instance xmlns="urn:form"/>')).toEqual({ formNamespace: 'urn:form', submissionIdentifier: null, answers: {} });
  });
});
