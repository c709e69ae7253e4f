import { createHmac } from 'node:crypto';
import { jpegImage } from '../../../../test/fixtures/resource-files';
import { pngPicture } from '../../../../test/fixtures/pictures';
import { documentModel, documentText, imageSize, inlineImage, referencedImages } from '../../src/domain/document-model';
import { recipients, renderTaskParts, senderAddress } from '../../src/domain/email-message';
import type { Destination } from '../../src/domain/records';
import { sign } from '../../src/domain/signing';
import { submission } from './submission-fixture';

const outline = [
  { identifier: 'customer_name', title: 'Customer', type: 'text', children: [] },
  { identifier: 'gps', title: 'GPS', type: 'location', children: [] },
  { identifier: 'photo', title: 'Photo', type: 'image', children: [] },
  { identifier: 'sketch', title: 'Sketch', type: 'sketch', children: [] },
];

describe('images in the document model', () => {
  it("reads a PNG's and a JPEG's size from their headers, and nothing else as an image", () => {
    expect(imageSize(pngPicture(31, 7))).toEqual({ type: 'png', width: 31, height: 7 });
    expect(imageSize(jpegImage())).toEqual({ type: 'jpeg', width: 8, height: 8 });
    expect(imageSize(Buffer.from('GIF89a……………………………………'))).toBeNull();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff]))).toBeNull();
  });

  it('takes an answer that is the image (Base64 or a data: URL) as inline, a file name as a reference', () => {
    const jpeg = jpegImage().toString('base64');
    expect(inlineImage(jpeg)).toEqual({ base64: jpeg, type: 'jpeg' });
    expect(inlineImage(`data:image/png;base64,${pngPicture(2, 2).toString('base64')}`)?.type).toBe('png');
    expect(inlineImage('photo-1.jpg')).toBeNull();
    const model = documentModel(submission({ answers: { photo: jpeg, sketch: 'sketch-1.png' } }), { outline });
    expect(model.items).toEqual([
      expect.objectContaining({ kind: 'image', name: 'photo.jpg', inline: { base64: jpeg, type: 'jpeg' } }),
      expect.objectContaining({ kind: 'image', name: 'sketch-1.png' }),
    ]);
    expect(referencedImages(model)).toEqual(['sketch-1.png']);
    // The text names the image; never its bytes.
    expect(documentText(model)).toContain('Photo: [image photo.jpg]');
    expect(documentText(model)).not.toContain(jpeg.slice(0, 20));
  });
});

describe('format parameters in the text', () => {
  const model = documentModel(submission({ answers: { customer_name: 'Acme', gps: 'lat=51.5034, long=-0.1276' } }), { outline });

  it('writes a location as devices send it (lat=…, long=…) as coordinates', () => {
    expect(documentText(model)).toContain('GPS: 51.5034, -0.1276');
  });

  it('include_answer_attributes names each answer\'s question and type', () => {
    expect(documentText(model)).toContain('Customer: Acme');
    expect(documentText(model, { answerAttributes: true })).toContain('Customer [customer_name, text]: Acme');
    expect(documentText(model, { answerAttributes: true })).toContain('GPS [gps, location]: 51.5034, -0.1276');
  });

  it('location_in_coordinate_format writes coordinates where the answer carries an address', () => {
    const located = submission({ answers: { site: { latitude: 1.5, longitude: 2.5, address: '1 High St' } } });
    expect(documentText(documentModel(located))).toContain('Site: 1 High St');
    expect(documentText(documentModel(located, { locationInCoordinates: true }))).toContain('Site: 1.5, 2.5');
  });
});

describe('transport parameters', () => {
  it('to_address_device_attribute adds the addresses of the device attribute, as the form field does, ignoring what is no address', () => {
    expect(recipients({ to_addresses: 'a@example.test' }, 'b@example.test', 'c@example.test; not an address')).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    expect(recipients({ to_address_device_attribute: 'boss' }, null, null)).toEqual([]);
  });

  it('from_domain puts the default sender on the destination\'s domain; from_address wins over both', () => {
    expect(senderAddress({}, 'forms@formcast.test')).toBe('forms@formcast.test');
    expect(senderAddress({ from_domain: 'acme.test' }, 'forms@formcast.test')).toBe('forms@acme.test');
    expect(senderAddress({ from_domain: 'acme.test', from_address: 'x@y.test' }, 'forms@formcast.test')).toBe('x@y.test');
  });

  it('custom_email_content false leaves the subject and body templates unused', () => {
    const destination = (custom: boolean | null) =>
      ({
        format: 'text_format',
        formatParameters: {},
        transport: { type: 'email_transport', parameters: { to_addresses: 'a@example.test', subject_template: 'S', body_template: 'B', custom_email_content: custom } },
      }) as unknown as Destination;
    expect(renderTaskParts('{}', destination(null))).toMatchObject({ subjectTemplate: 'S', bodyTemplate: 'B' });
    expect(renderTaskParts('{}', destination(true))).toMatchObject({ subjectTemplate: 'S', bodyTemplate: 'B' });
    expect(renderTaskParts('{}', destination(false))).toMatchObject({ subjectTemplate: null, bodyTemplate: null });
  });
});

describe('signing a document', () => {
  it('signs the bytes of a binary body (HMAC over "<id>.<timestamp>." and the bytes), a text body as before', () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0xfe, 0x00, 0x80]);
    const expected = createHmac('sha256', Buffer.alloc(32, 9)).update(Buffer.concat([Buffer.from('msg_1.1700000000.'), bytes])).digest('base64');
    expect(sign(secret, 'msg_1', 1700000000, bytes)).toBe(`v1,${expected}`);
    expect(sign(secret, 'msg_1', 1700000000, '{"a":"é"}')).toBe(sign(secret, 'msg_1', 1700000000, Buffer.from('{"a":"é"}', 'utf8')));
  });
});
