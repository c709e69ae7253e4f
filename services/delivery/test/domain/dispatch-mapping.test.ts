import { dispatchCommandId, nameBasedUuid } from '../../src/domain/command-id';
import { dispatchOneshot } from '../../src/domain/dispatch-mapping';
import { submission } from './submission-fixture';

describe('dispatch_transport', () => {
  it('pushes the target template to the submitting device, each mapped question taking its source answer', () => {
    expect(
      dispatchOneshot(submission(), {
        form_namespace: 'http://formcast.local/xforms/follow-up',
        field_map: { client: 'customer_name', site_contact: 'contact', items: 'parts', missing: 'not_answered' },
      }),
    ).toEqual({
      deviceRef: 'Android_1',
      form_namespace: 'http://formcast.local/xforms/follow-up',
      payload: {
        client: 'Acme & Sons <ltd>',
        site_contact: { phone: '555-0100', floor: '2' },
        items: [
          { part_no: 'A1', qty: '2' },
          { part_no: 'B7', qty: '1' },
        ],
      },
    });
  });

  it('maps nothing from inherited properties', () => {
    expect(dispatchOneshot(submission(), { form_namespace: 'n', field_map: { a: 'constructor', b: 'toString' } }).payload).toEqual({});
  });

  it('sends one command id per destination and submission, whoever sends it', () => {
    const id = dispatchCommandId(4, 41);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(dispatchCommandId(4, 41)).toBe(id);
    expect(new Set([id, dispatchCommandId(4, 42), dispatchCommandId(5, 41)]).size).toBe(3);
  });

  it('makes RFC 9562 version 5 UUIDs', () => {
    // The RFC's own example: "www.example.com" in the DNS namespace.
    const dnsNamespace = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');
    expect(nameBasedUuid('www.example.com', dnsNamespace)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});
