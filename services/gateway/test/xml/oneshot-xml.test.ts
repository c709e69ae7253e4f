import { AppError } from '@formcast/platform';
import { pushNamespace, readOneshotXml } from '../../src/xml/oneshot-xml';
import { parseXml } from '../../src/xml/parse-xml';

const read = (xml: string) => readOneshotXml(parseXml(xml));
const refused = (message: string) => new AppError('invalid', message);

describe('readOneshotXml', () => {
  it('reads the documented body: metadata in the push namespace, the other children as the payload', () => {
    const xml = `<oneshot xmlns="http://www.w3.org/2002/xforms" xmlns:p="${pushNamespace}">
      <p:form_name>Visit</p:form_name>
      <p:form_namespace>http://formcast.local/xforms/abc</p:form_namespace>
      <p:form_description>Gate 4</p:form_description>
      <customer_name>Acme</customer_name>
      <visits>007</visits>
    </oneshot>`;
    expect(read(xml)).toEqual({
      form_name: 'Visit',
      form_namespace: 'http://formcast.local/xforms/abc',
      form_description: 'Gate 4',
      payload: { customer_name: 'Acme', visits: '007' },
    });
  });

  it('matches metadata by namespace URI whatever the prefix, or without a prefix', () => {
    expect(read(`<x:oneshot xmlns:x="${pushNamespace}"><x:form_namespace>n</x:form_namespace></x:oneshot>`)).toEqual({ form_namespace: 'n', payload: {} });
    expect(read('<oneshot><form_namespace>n</form_namespace></oneshot>')).toEqual({ form_namespace: 'n', payload: {} });
    // In another namespace it is a question like any other.
    expect(read('<oneshot xmlns:o="urn:other"><o:form_name>n</o:form_name></oneshot>')).toEqual({ payload: { form_name: 'n' } });
  });

  it('reads subforms as objects and repeated elements as lists, by local name', () => {
    const xml = `<oneshot xmlns:q="urn:questions">
      <contact><phone>555</phone><q:floor>4</q:floor></contact>
      <parts><part_no>A-1</part_no></parts>
      <parts><part_no>B-7</part_no><qty>2</qty></parts>
      <empty/>
    </oneshot>`;
    expect(read(xml).payload).toEqual({
      contact: { phone: '555', floor: '4' },
      parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }],
      empty: '',
    });
  });

  it('ignores attributes of questions', () => {
    expect(read('<oneshot><visits type="integer">3</visits></oneshot>').payload).toEqual({ visits: '3' });
  });

  it('refuses another root element', () => {
    expect(() => read('<oneshots><oneshot/></oneshots>')).toThrow(refused('XML root element must be <oneshot>'));
  });

  it('refuses an undeclared prefix, at any depth', () => {
    expect(() => read('<q:oneshot/>')).toThrow(refused('XML prefix "q" is not declared'));
    expect(() => read('<oneshot><q:a>1</q:a></oneshot>')).toThrow(refused('XML prefix "q" is not declared'));
    expect(() => read('<oneshot><a><q:b>1</q:b></a></oneshot>')).toThrow(refused('XML prefix "q" is not declared'));
  });

  it('refuses metadata given twice, under one name or two', () => {
    expect(() => read('<oneshot><form_name>a</form_name><form_name>b</form_name></oneshot>')).toThrow(refused('form_name: must appear once'));
    expect(() => read(`<oneshot xmlns:p="${pushNamespace}"><p:form_namespace>a</p:form_namespace><form_namespace>b</form_namespace></oneshot>`)).toThrow(
      refused('form_namespace: must appear once'),
    );
  });

  it('refuses metadata that is not text', () => {
    expect(() => read('<oneshot><form_name><x>1</x></form_name></oneshot>')).toThrow(refused('form_name: must be text'));
  });

  it('refuses a question given under two prefixes', () => {
    expect(() => read('<oneshot xmlns:a="urn:a" xmlns:b="urn:b"><a:q>1</a:q><b:q>2</b:q></oneshot>')).toThrow(
      refused('payload.q: given twice (with two prefixes)'),
    );
  });

  it('reads an empty oneshot as no metadata and no payload', () => {
    expect(read('<oneshot/>')).toEqual({ payload: {} });
  });
});

describe('readOneshotXml: the later generations dispatch fields', () => {
  it('reads dm:scheduled_at, dm:location, dm:address and dm:geofence_radius, matched by namespace URI', () => {
    const xml = `<oneshot xmlns="http://www.w3.org/2002/xforms" xmlns:d="${pushNamespace}">
      <d:form_namespace>http://formcast.local/xforms/abc</d:form_namespace>
      <d:scheduled_at>2030-01-01T08:00:00Z</d:scheduled_at>
      <d:location>lat=35.77, long=-78.63</d:location>
      <d:address>Raleigh</d:address>
      <d:geofence_radius>150</d:geofence_radius>
      <customer_name>Acme</customer_name>
    </oneshot>`;
    expect(read(xml)).toEqual({
      form_namespace: 'http://formcast.local/xforms/abc',
      scheduled_at: '2030-01-01T08:00:00Z',
      location: 'lat=35.77, long=-78.63',
      address: 'Raleigh',
      geofence_radius: '150',
      payload: { customer_name: 'Acme' },
    });
  });

  it('reads the new names without a prefix as questions: a form may ask for an address', () => {
    expect(read('<oneshot><form_namespace>n</form_namespace><address>Main St</address><location>x</location></oneshot>')).toEqual({
      form_namespace: 'n',
      payload: { address: 'Main St', location: 'x' },
    });
  });

  it('refuses an unknown element of the push namespace, naming it, whatever the prefix', () => {
    const message = `send_at: unknown element of the push namespace ${pushNamespace}; its elements are form_name, form_namespace, form_description, scheduled_at, location, address, geofence_radius`;
    expect(() => read(`<oneshot xmlns:dm="${pushNamespace}"><dm:form_namespace>n</dm:form_namespace><dm:send_at>2030-01-01T08:00:00Z</dm:send_at></oneshot>`)).toThrow(refused(message));
    expect(() => read(`<oneshot xmlns:p="${pushNamespace}"><p:send_at>x</p:send_at></oneshot>`)).toThrow(refused(message));
  });

  it('keeps questions without a prefix under a default push namespace', () => {
    expect(read(`<oneshot xmlns="${pushNamespace}"><form_namespace>n</form_namespace><scheduled_at>t</scheduled_at><customer_name>Acme</customer_name></oneshot>`)).toEqual({
      form_namespace: 'n',
      scheduled_at: 't',
      payload: { customer_name: 'Acme' },
    });
  });

  it('refuses a dispatch field given twice or not as text', () => {
    expect(() => read(`<oneshot xmlns:dm="${pushNamespace}"><dm:address>a</dm:address><dm:address>b</dm:address></oneshot>`)).toThrow(refused('address: must appear once'));
    expect(() => read(`<oneshot xmlns:dm="${pushNamespace}"><dm:location><lat>1</lat></dm:location></oneshot>`)).toThrow(refused('location: must be text'));
  });
});
