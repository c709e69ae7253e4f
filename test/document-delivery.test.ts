import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PizZip from 'pizzip';
import type { DeliveryView } from '@formcast/contracts';
import { waitFor } from '@formcast/testing';
import { jpegImage } from './fixtures/resource-files';
import { jpegPicture } from './fixtures/pictures';
import { enrollDevice, type TestDevice } from './support/fixtures';
import { deliveryLog, makeDestination, submitThroughPush } from './support/delivery-fixtures';
import { createTemplate, type TestTemplate } from './support/push-fixtures';
import { SmtpSink, type ReceivedMail } from './support/smtp-sink';
import { startSystem, systemModes } from './support/start-system';
import { useStartedSystem } from './support/use-system';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

/**
 * Documents with their images, documents over HTTP, and every format and transport parameter
 * destination.md shows having its effect. One submission goes to every destination made
 * before it: each test checks its own destination's delivery.
 */

const visit = {
  type: 'root',
  title: 'Site visit',
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'notify', title: 'Notify', type: 'text' },
    { identifier: 'gps', title: 'GPS', type: 'location' },
    {
      identifier: 'site',
      title: 'Site',
      type: 'subform',
      children: [
        { identifier: 'latitude', type: 'decimal' },
        { identifier: 'longitude', type: 'decimal' },
        { identifier: 'address', type: 'text' },
      ],
    },
    { identifier: 'photo', title: 'Photo', type: 'image' },
    { identifier: 'signature', title: 'Signature', type: 'signature' },
  ],
};

/** Images arrive in the answers as Base64 JPEG (push's rule for image, sketch and signature answers). */
let photo: Buffer;
const answers = () => ({
  customer_name: 'Acme Heating',
  notify: '',
  gps: 'lat=51.5034, long=-0.1276',
  // A location with its address, as a device that geocodes sends it.
  site: { latitude: '51.5034', longitude: '-0.1276', address: '10 Downing Street, London' },
  photo: photo.toString('base64'),
  signature: jpegImage().toString('base64'),
});

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function withFile<T>(bytes: Buffer, run: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-doc-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    return run(join(dir, 'in.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The images a PDF holds, as `pdfimages -list` (poppler-utils) reads them: `width x height`. */
const pdfImages = (bytes: Buffer): string[] =>
  withFile(bytes, (file) =>
    execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2)
      .map((row) => row.trim().split(/\s+/))
      .map((cells) => `${cells[3]}x${cells[4]}`),
  );

const pdfText = (bytes: Buffer): string => withFile(bytes, (file) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));

const docxMedia = (bytes: Buffer): Buffer[] => {
  const zip = new PizZip(bytes);
  return Object.keys(zip.files)
    .filter((name) => name.startsWith('word/media/'))
    .map((name) => zip.file(name)!.asNodeBuffer());
};

jest.setTimeout(90_000);

describe.each(systemModes)('Documents: images, HTTP, every parameter (%s)', (mode) => {
  let sink: SmtpSink;
  let receiver: WebhookReceiver;
  const sys = useStartedSystem(
    async () => {
      sink = await SmtpSink.start();
      receiver = await WebhookReceiver.start();
      return startSystem(mode, { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_TIMEOUT_MS: '3000', DELIVERY_SMTP_URL: sink.url, DELIVERY_MAIL_FROM: 'forms@formcast.test' });
    },
    { organizations: 1 },
  );
  let device: TestDevice;
  let form: TestTemplate;
  const made: Record<string, { id: number; secret?: string }> = {};
  const to = (name: string) => `${name}-${mode}@example.test`;

  async function destination(name: string, body: object): Promise<void> {
    const { id, secret } = await makeDestination(sys.api, sys.org, form.id, body);
    made[name] = { id, secret };
  }

  const email = (format: string, transport: object, formatParameters?: object) => ({
    destination: { format_selection: format, transport_selection: 'email_transport' },
    ...(formatParameters ? { [format]: formatParameters } : {}),
    email_transport: transport,
  });

  beforeAll(async () => {
    photo = await jpegPicture(120);
    device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    const attributes = await sys.api.put(`/organizations/${sys.org.orgId}/devices/${device.id}.json`, {
      token: sys.org.token,
      json: { device: { custom_attributes: { supervisor_email: to('supervisor') } } },
    });
    if (attributes.status !== 202) throw new Error(`setting the device's attributes answered ${attributes.status}: ${attributes.text}`);
    form = await createTemplate(sys.api, sys.org, visit);

    await destination('pdf', email('pdf_format', { to_addresses: to('pdf') }));
    await destination('word', email('word_format', { to_addresses: to('word') }));
    await destination('pdfHttp', { destination: { format_selection: 'pdf_format', transport_selection: 'http_transport' }, pdf_format: { file_name_template: 'visit-{{ customer_name }}' }, http_transport: { uri: receiver.url('/pdf'), headers: { 'X-Office': 'north' } } });
    await destination('wordHttp', { destination: { format_selection: 'word_format', transport_selection: 'http_transport' }, http_transport: { uri: receiver.url('/word') } });
    await destination('attributes', email('text_format', { to_addresses: to('attributes') }, { include_answer_attributes: true, include_images: true }));
    await destination('coordinates', email('text_format', { to_addresses: to('coordinates') }, { location_in_coordinate_format: true }));
    await destination('noImages', email('pdf_format', { to_addresses: to('noimages') }, { include_images: false }));
    await destination('defaults', email('text_format', { to_addresses: to('defaults'), subject_template: 'Custom {{ customer_name }}', body_template: 'Custom body', custom_email_content: false, from_domain: 'acme.test' }));
    await destination('device', email('text_format', { to_address_device_attribute: 'supervisor_email' }));
    await destination('allowNone', email('text_format', { to_address_form_field: 'notify', allow_no_email: true }));
    await destination('noneAllowed', email('text_format', { to_address_form_field: 'notify' }));
    await destination('startTls', email('text_format', { to_addresses: to('starttls'), via_custom_smtp: true, smtp_address: '127.0.0.1', smtp_port: sink.port, encryption: 2 }));
    await destination('plainSmtp', email('text_format', { to_addresses: to('plainsmtp'), via_custom_smtp: true, smtp_address: '127.0.0.1', smtp_port: sink.port, encryption: 0 }));

    await submitThroughPush(sys.api, sys.org, device, form.namespace, answers());
  });
  afterAll(async () => {
    await sink?.close();
    await receiver?.close();
  });

  async function deliveryOf(name: string, done: (delivery: DeliveryView) => boolean = (d) => d.status !== 'pending'): Promise<DeliveryView> {
    return waitFor(
      async () => {
        const [delivery] = await deliveryLog(sys.api, sys.org, form.id, made[name]!.id);
        return delivery && done(delivery) ? delivery : undefined;
      },
      { intervalMs: 100, timeoutMs: 30_000, description: `the delivery to ${name}` },
    );
  }

  const mailTo = (address: string): Promise<ReceivedMail> =>
    waitFor(() => sink.received(address)[0], { description: `a mail to ${address}`, timeoutMs: 30_000 });

  const posted = (path: string): Promise<ReceivedWebhook> =>
    waitFor(() => receiver.received(path)[0], { description: `a POST to ${path}`, timeoutMs: 30_000 });

  it('draws the image and the signature carried in the answers into the PDF and the .docx', async () => {
    const pdf = (await mailTo(to('pdf'))).parsed.attachments[0]!;
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdfImages(pdf.content).sort()).toEqual(['120x68', '8x8']);
    expect(pdfText(pdf.content)).toContain('Signature');
    const docx = (await mailTo(to('word'))).parsed.attachments[0]!;
    expect(docxMedia(docx.content)).toEqual(expect.arrayContaining([photo, jpegImage()]));
  });

  it('POSTs the PDF over http_transport as the body, with its type and name, signed over its bytes as webhooks are', async () => {
    const request = await posted('/pdf');
    expect(request.headers['content-type']).toBe('application/pdf');
    expect(request.headers['content-disposition']).toContain('filename="visit-Acme Heating.pdf"');
    expect(request.headers['x-office']).toBe('north');
    expect(pdfImages(request.rawBody)).toHaveLength(2);
    // Standard Webhooks: HMAC-SHA256 of "<id>.<timestamp>." and the body's bytes.
    const secret = made['pdfHttp']!.secret!;
    expect(secret).toMatch(/^whsec_/);
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.`)
      .update(request.rawBody)
      .digest('base64');
    expect(String(request.headers['webhook-signature']).split(' ')).toContain(`v1,${expected}`);
    const delivery = await deliveryOf('pdfHttp');
    expect(delivery.status).toBe('succeeded');
    const document = await fetch(`${sys.api.baseUrl}/api/forms/${form.id}/destinations/${made['pdfHttp']!.id}/deliveries/${delivery.id}/document`, {
      headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` },
    });
    expect(Buffer.from(await document.arrayBuffer())).toEqual(request.rawBody);

    const word = await posted('/word');
    expect(word.headers['content-type']).toBe(docxType);
    expect(docxMedia(word.rawBody)).toHaveLength(2);
  });

  it('text_format: include_answer_attributes names each question and type; include_images attaches the images; an address is written as such', async () => {
    const mail = await mailTo(to('attributes'));
    const text = mail.parsed.text!;
    expect(text).toContain('Customer [customer_name, text]: Acme Heating');
    expect(text).toContain('Site [site, subform]: 10 Downing Street, London');
    expect(text).toContain('GPS [gps, location]: 51.5034, -0.1276');
    expect(text).toContain('Photo [photo, image]: [image photo.jpg]');
    expect(mail.parsed.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      ['photo.jpg', 'image/jpeg'],
      ['signature.jpg', 'image/jpeg'],
    ]);
    expect(mail.parsed.attachments[0]!.content).toEqual(photo);
  });

  it('text_format: location_in_coordinate_format writes the coordinates, not the address; no images without include_images', async () => {
    const mail = await mailTo(to('coordinates'));
    expect(mail.parsed.text).toContain('Site: 51.5034, -0.1276');
    expect(mail.parsed.text).not.toContain('Downing');
    expect(mail.parsed.text).not.toContain('[customer_name');
    expect(mail.parsed.attachments).toHaveLength(0);
  });

  it('pdf_format: include_images false leaves the images out, naming them', async () => {
    const pdf = (await mailTo(to('noimages'))).parsed.attachments[0]!;
    expect(pdfImages(pdf.content)).toEqual([]);
    expect(pdfText(pdf.content)).toContain('image photo.jpg: not included');
  });

  it('custom_email_content false sends the default subject and body whatever the templates; from_domain is the sender\'s domain', async () => {
    const mail = await mailTo(to('defaults'));
    expect(mail.parsed.subject).toMatch(/^Site visit: submission \d+ from /);
    expect(mail.parsed.text).toContain('Customer: Acme Heating');
    expect(mail.parsed.text).not.toContain('Custom body');
    expect(mail.from).toBe('forms@acme.test');
  });

  it("to_address_device_attribute sends to the address in the submitting device's custom attribute", async () => {
    const mail = await mailTo(to('supervisor'));
    expect(mail.to).toEqual([to('supervisor')]);
    expect((await deliveryOf('device')).status).toBe('succeeded');
  });

  it('allow_no_email: a submission naming nobody succeeds without a mail; without it, the delivery fails for good', async () => {
    const allowed = await deliveryOf('allowNone');
    expect(allowed.status).toBe('succeeded');
    expect(allowed.attempts[0]).toMatchObject({ status_code: null, error: null, response_body: 'no recipient: nothing sent (allow_no_email)' });
    const refused = await deliveryOf('noneAllowed');
    expect(refused.status).toBe('failed');
    expect(refused.attempts[0]!.error).toContain('no recipient');
  });

  it('encryption 2 requires STARTTLS of the custom server (this one offers none: nothing sent); 0 sends in clear', async () => {
    const refused = await deliveryOf('startTls', (d) => d.attempts.length > 0);
    // The server refuses STARTTLS with a 5xx: permanent, as any 5xx is.
    expect(refused).toMatchObject({ status: 'failed', attempts: [expect.objectContaining({ status_code: 500 })] });
    expect(refused.attempts[0]!.error).toMatch(/STARTTLS/i);
    expect(sink.received(to('starttls'))).toHaveLength(0);
    expect((await deliveryOf('plainSmtp')).status).toBe('succeeded');
    expect(sink.received(to('plainsmtp'))).toHaveLength(1);
  });

  it('keeps a bounce list: an address refused for good is left out of later emails, unless skip_bounce_list_check', async () => {
    const other = await createTemplate(sys.api, sys.org, { type: 'root', title: 'Bounces', children: [{ identifier: 'note', title: 'Note', type: 'text' }] });
    const gone = to('gone');
    sink.refuseRecipient(gone);
    const create = async (addresses: string, skip: boolean | null = null) => {
      const res = await sys.api.post(`/api/forms/${other.id}/destinations.json`, {
        token: sys.org.token,
        json: { destination: { format_selection: 'text_format', transport_selection: 'email_transport' }, email_transport: { to_addresses: addresses, skip_bounce_list_check: skip } },
      });
      expect(res.status).toBe(201);
      return res.json().destination.id as number;
    };
    const submitOther = async () => {
      const res = await sys.api.post(`/device/forms/${other.id}/submissions`, { bearer: device.secret, json: { answers: { note: 'hello' } } });
      expect(res.status).toBe(201);
    };
    const latest = (destinationId: number) =>
      waitFor(
        async () => {
          const [delivery] = (await sys.api.get(`/api/forms/${other.id}/destinations/${destinationId}/deliveries.json`, { token: sys.org.token })).json().deliveries as DeliveryView[];
          return delivery && delivery.status !== 'pending' ? delivery : undefined;
        },
        { intervalMs: 100, timeoutMs: 30_000, description: `the delivery to destination ${destinationId}` },
      );

    // The first email: the server refuses `gone` (550 to RCPT TO) and takes the other.
    const first = await create(`${gone};${to('first')}`);
    await submitOther();
    expect((await latest(first)).status).toBe('succeeded');
    expect(sink.recipientTries(gone)).toBe(1);
    await destinationsOff(other.id, [first]);

    // Later emails leave it out; with skip_bounce_list_check it is tried again.
    const checked = await create(`${gone};${to('second')}`);
    const skipping = await create(`${gone};${to('third')}`, true);
    const onlyGone = await create(gone);
    await submitOther();
    const sent = await latest(checked);
    expect(sent.status).toBe('succeeded');
    expect(sent.attempts[0]!.response_body).toContain(`left out, on the bounce list: ${gone}`);
    expect((await mailTo(to('second'))).to).toEqual([to('second')]);
    expect((await latest(skipping)).status).toBe('succeeded');
    expect(sink.recipientTries(gone)).toBe(2);
    const refused = await latest(onlyGone);
    expect(refused.status).toBe('failed');
    expect(refused.attempts[0]!.error).toContain('every recipient is on the bounce list');
  });

  /** Turns destinations off, so a later submission of the form goes to the others only. */
  async function destinationsOff(formId: number, ids: number[]): Promise<void> {
    for (const id of ids) {
      const res = await sys.api.put(`/api/forms/${formId}/destinations/${id}.json`, { token: sys.org.token, json: { destination: { active: false } } });
      expect(res.status).toBe(200);
    }
  }
});
