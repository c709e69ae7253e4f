import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PizZip from 'pizzip';
import type { DeliveryView } from '@formcast/contracts';
import { waitFor } from '@formcast/testing';
import { createOrganization, enrollDevice, type TestDevice } from './support/fixtures';
import { deliveryLog, makeDestination, submitThroughPush } from './support/delivery-fixtures';
import { createTemplate, type TestTemplate } from './support/push-fixtures';
import { SmtpSink, type ReceivedMail } from './support/smtp-sink';
import { startSystem, systemModes } from './support/start-system';
import { useStartedSystem } from './support/use-system';

/** The first retry comes 5 s after the first attempt (± 10% jitter): see the delivery service's retry schedule. */
const retryWait = { timeoutMs: 5000 * 1.1 + 15_000, intervalMs: 100 };

const inspection = {
  type: 'root',
  title: 'Boiler inspection',
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'customer_email', title: 'Customer email', type: 'text' },
    { identifier: 'comments', title: 'Comments', type: 'textarea' },
    { identifier: 'contact', title: 'Contact', type: 'subform', children: [{ identifier: 'phone', title: 'Phone', type: 'text' }] },
    {
      identifier: 'parts',
      title: 'Parts',
      type: 'group',
      children: [
        { identifier: 'part_no', title: 'Part', type: 'text' },
        { identifier: 'qty', title: 'Quantity', type: 'integer' },
      ],
    },
  ],
};

const answers = {
  customer_name: 'Acme Heating',
  customer_email: 'office@acme.test',
  comments: 'Pressure low; valve <B> & "seal" replaced',
  contact: { phone: '555-0100' },
  parts: [
    { part_no: 'VALVE-7', qty: '2' },
    { part_no: 'SEAL-3', qty: '5' },
  ],
};

jest.setTimeout(60_000);

describe.each(systemModes)('Documents by email (%s)', (mode) => {
  let sink: SmtpSink;
  const sys = useStartedSystem(
    async () => {
      sink = await SmtpSink.start({ mailer: 's3cret-pass' });
      return startSystem(mode, { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_TIMEOUT_MS: '3000', DELIVERY_SMTP_URL: sink.url, DELIVERY_MAIL_FROM: 'forms@formcast.test' });
    },
    { organizations: 1 },
  );
  let device: TestDevice;
  let form: TestTemplate;
  let mailboxes = 0;

  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    form = await createTemplate(sys.api, sys.org, inspection);
  });
  afterAll(() => sink?.close());

  const mailbox = (name = 'office') => `${name}${(mailboxes += 1)}-${mode}@example.test`;

  async function createDestination(body: object) {
    return sys.api.post(`/api/forms/${form.id}/destinations.json`, { token: sys.org.token, json: body });
  }

  async function destination(body: object): Promise<{ id: number; view: Record<string, unknown> }> {
    const { id, view } = await makeDestination(sys.api, sys.org, form.id, body);
    return { id, view };
  }

  function submit(values: Record<string, unknown> = answers): Promise<void> {
    return submitThroughPush(sys.api, sys.org, device, form.namespace, values);
  }

  function deliveries(destinationId: number): Promise<DeliveryView[]> {
    return deliveryLog(sys.api, sys.org, form.id, destinationId);
  }

  function waitForDelivery(destinationId: number, done: (delivery: DeliveryView) => boolean, options: { timeoutMs: number; intervalMs?: number } = { timeoutMs: 15_000 }) {
    return waitFor(
      async () => {
        const [delivery] = await deliveries(destinationId);
        return delivery && done(delivery) ? delivery : undefined;
      },
      { intervalMs: 50, description: `delivery to destination ${destinationId}`, ...options },
    );
  }

  const mailsTo = (address: string, count = 1): Promise<ReceivedMail[]> =>
    waitFor(() => (sink.received(address).length >= count ? sink.received(address) : undefined), { description: `${count} mail(s) to ${address}`, timeoutMs: 15_000 });

  it("takes destination.md's own example (text_format over email_transport) and mails the answers as text to every address", async () => {
    const first = mailbox();
    const second = mailbox();
    const created = await destination({
      destination: { description: 'Some description', format_selection: 'text_format', transport_selection: 'email_transport' },
      email_transport: { to_addresses: `${first};${second}` },
    });
    expect(created.view).toMatchObject({ format_type: 'text_format', transport_type: 'email_transport', binary_transport_type: null });
    await submit();
    const [mail] = await mailsTo(first);
    expect(sink.received(second)).toHaveLength(1);
    expect(mail!.to.sort()).toEqual([first, second].sort());
    expect(mail!.from).toBe('forms@formcast.test');
    expect(mail!.parsed.subject).toMatch(/^Boiler inspection: submission \d+ from /);
    const text = mail!.parsed.text!;
    expect(text).toContain('Boiler inspection');
    expect(text).toContain('Customer: Acme Heating');
    expect(text).toContain('Comments: Pressure low; valve <B> & "seal" replaced');
    expect(text).toMatch(/Contact:\n  Phone: 555-0100/);
    expect(text).toMatch(/Parts 1:\n  Part: VALVE-7\n  Quantity: 2\nParts 2:\n  Part: SEAL-3\n  Quantity: 5/);
    expect(text).toMatch(/Device: .+ \(Ada\)/);
    expect(mail!.parsed.attachments).toHaveLength(0);

    const delivery = await waitForDelivery(created.id, (d) => d.status === 'succeeded');
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ status_code: 250, response_body: expect.stringContaining('Ok: queued as formcast-test'), error: null }),
    ]);
    const document = await documentOf(created.id, delivery.id);
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect((await document.text()).trimEnd()).toBe(text.trimEnd());
  });

  it('fills subject and body templates from the answers and metadata, sends to the address answered in the form, from its own sender', async () => {
    const copy = mailbox('copy');
    const customer = `customer-${mode}@acme.test`;
    const created = await destination({
      destination: { format_selection: 'text_format', transport_selection: 'email_transport' },
      text_format: { template: '<h1>{{ form_name }}</h1><p>{{ customer_name | upcase }}</p>{% for p in parts %}<li>{{ p.part_no }} × {{ p.qty }}</li>{% endfor %}', render_template_as_html: true, text_intro: 'Hello,' },
      email_transport: {
        to_addresses: copy,
        to_address_form_field: 'customer_email',
        from_address: 'inspections@acme.test',
        from_name: 'Acme Inspections',
        subject_template: 'Inspection for {{ customer_name }} by {{ username }} (#{{ submission_id }})',
      },
    });
    await submit({ ...answers, customer_email: customer });
    const [mail] = await mailsTo(copy);
    expect(mail!.to.sort()).toEqual([copy, customer].sort());
    expect(mail!.parsed.from?.value).toEqual([{ address: 'inspections@acme.test', name: 'Acme Inspections' }]);
    expect(mail!.parsed.subject).toMatch(/^Inspection for Acme Heating by Ada \(#\d+\)$/);
    expect(mail!.parsed.html).toContain('<h1>Boiler inspection</h1><p>ACME HEATING</p><li>VALVE-7 × 2</li><li>SEAL-3 × 5</li>');
    expect(mail!.parsed.text).toMatch(/^Hello,\n\nBoiler inspection/);
    await waitForDelivery(created.id, (d) => d.status === 'succeeded');
  });

  it('shows every parameter destination.md shows, with its record id and times; the SMTP password never', async () => {
    const created = await destination({
      destination: { format_selection: 'text_format', transport_selection: 'email_transport' },
      text_format: { location_in_coordinate_format: true },
      email_transport: { to_addresses: 'a@example.test', via_custom_smtp: true, smtp_address: '127.0.0.1', smtp_port: sink.port, username: 'mailer', password: 's3cret-pass', auth_scheme: 'plain' },
    });
    const res = await sys.api.get(`/api/forms/${form.id}/destinations/${created.id}.json`, { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('s3cret-pass');
    const shown = res.json().destination;
    const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(Object.keys(shown.text_format)).toEqual([
      'id', 'include_images', 'created_at', 'updated_at', 'template', 'text_intro', 'custom_text_content', 'render_template_as_html', 'location_in_coordinate_format', 'include_answer_attributes',
    ]);
    expect(shown.text_format).toMatchObject({ id: shown.format_id, location_in_coordinate_format: true, template: null, created_at: time, updated_at: time });
    expect(shown.email_transport).toMatchObject({ id: shown.transport_id, to_addresses: 'a@example.test', password: '********', username: 'mailer', smtp_port: sink.port, encryption: 0, use_tls: null });

    // An update without the password (or with the mask it was shown) keeps it.
    const put = await sys.api.put(`/api/forms/${form.id}/destinations/${created.id}.json`, {
      token: sys.org.token,
      json: { destination: { description: 'Brand new description' }, email_transport: { ...shown.email_transport, to_addresses: 'b@example.test' }, text_format: { location_in_coordinate_format: false } },
    });
    expect(put.status).toBe(200);
    expect(put.json().destination.email_transport).toMatchObject({ to_addresses: 'b@example.test', password: '********' });
    expect(put.json().destination.text_format.location_in_coordinate_format).toBe(false);
  });

  it('sends through the destination\'s own SMTP server with its login', async () => {
    const to = mailbox();
    const created = await destination({
      destination: { format_selection: 'text_format', transport_selection: 'email_transport' },
      email_transport: { to_addresses: to, via_custom_smtp: true, smtp_address: '127.0.0.1', smtp_port: sink.port, username: 'mailer', password: 's3cret-pass', auth_scheme: 'login' },
    });
    await submit();
    const [mail] = await mailsTo(to);
    expect(mail!.user).toBe('mailer');
    await waitForDelivery(created.id, (d) => d.status === 'succeeded');
  });

  it('retries a 4xx answer on the schedule, and records each SMTP reply', async () => {
    const to = `temp${(mailboxes += 1)}-${mode}@example.test`;
    sink.script(to.split('@')[0]!, [451, 250]);
    const created = await destination({
      destination: { format_selection: 'text_format', transport_selection: 'email_transport' },
      email_transport: { to_addresses: to },
    });
    await submit();
    const delivery = await waitForDelivery(created.id, (d) => d.status === 'succeeded', retryWait);
    expect(delivery.attempts.map((a) => a.status_code)).toEqual([451, 250]);
    expect(delivery.attempts[0]!.response_body).toContain('Try again later');
    expect(sink.received(to)).toHaveLength(1);
  });

  it('gives up at once on a 5xx answer: permanent, no retry; a redeliver sends it again', async () => {
    const to = `reject${(mailboxes += 1)}-${mode}@example.test`;
    sink.script(to.split('@')[0]!, [550, 250]);
    const created = await destination({
      destination: { format_selection: 'text_format', transport_selection: 'email_transport' },
      email_transport: { to_addresses: to },
    });
    await submit();
    const failed = await waitForDelivery(created.id, (d) => d.status === 'failed');
    expect(failed.attempts).toEqual([expect.objectContaining({ status_code: 550, response_body: expect.stringContaining('Mailbox unavailable') })]);
    expect(failed.next_attempt_at).toBeNull();
    const again = await sys.api.post(`/api/forms/${form.id}/destinations/${created.id}/deliveries/${failed.id}/redeliver.json`, { token: sys.org.token });
    expect(again.status).toBe(202);
    const delivered = await waitForDelivery(created.id, (d) => d.status === 'succeeded');
    expect(delivered.attempts.map((a) => a.status_code)).toEqual([550, 250]);
    expect(sink.received(to)).toHaveLength(1);
  });

  /** GET of a delivery's document, its bytes untouched. */
  function documentOf(destinationId: number, deliveryId: number, token = sys.org.token): Promise<Response> {
    return fetch(`${sys.api.baseUrl}/api/forms/${form.id}/destinations/${destinationId}/deliveries/${deliveryId}/document`, {
      headers: { authorization: `Basic ${Buffer.from(`${token}:x`).toString('base64')}` },
    });
  }

  /** The text pdftotext (poppler-utils) reads from a PDF. */
  function pdfText(bytes: Buffer): string {
    const dir = mkdtempSync(join(tmpdir(), 'formcast-pdf-'));
    try {
      writeFileSync(join(dir, 'in.pdf'), bytes);
      return execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The text of a .docx's document.xml: every w:t, paragraphs on lines of their own. */
  function docxText(bytes: Buffer): string {
    const xml = new PizZip(bytes).file('word/document.xml')!.asText();
    return xml
      .split(/<\/w:p>/)
      .map((paragraph) => [...paragraph.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''))
      .filter((line) => line !== '')
      .join('\n')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"');
  }

  it('attaches the submission as a PDF: the form, the device, the times, every answer in the form\'s order, groups and subforms laid out', async () => {
    const to = mailbox();
    const created = await destination({
      destination: { format_selection: 'pdf_format', transport_selection: 'email_transport' },
      pdf_format: { file_name_template: 'inspection-{{ customer_name }}' },
      email_transport: { to_addresses: to, body_template: 'The inspection of {{ customer_name }} is attached.' },
    });
    await submit();
    const [mail] = await mailsTo(to);
    expect(mail!.parsed.text?.trim()).toBe('The inspection of Acme Heating is attached.');
    expect(mail!.parsed.attachments).toHaveLength(1);
    const [pdf] = mail!.parsed.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.filename).toBe('inspection-Acme Heating.pdf');
    expect(pdf!.content.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf!.content);
    expect(text).toContain('Boiler inspection');
    expect(text).toMatch(/Device: .+\(Ada\)/);
    expect(text).toMatch(/Submitted: \d{4}-\d\d-\d\dT/);
    for (const shown of ['Customer', 'Acme Heating', 'Pressure low; valve <B> & "seal" replaced', 'Contact', 'Phone', '555-0100', 'Parts 1', 'VALVE-7', 'Parts 2', 'SEAL-3', 'Quantity']) {
      expect(text).toContain(shown);
    }
    expect(text.indexOf('Acme Heating')).toBeLessThan(text.indexOf('Pressure low'));
    expect(text.indexOf('Parts 1')).toBeLessThan(text.indexOf('Parts 2'));
    const delivery = await waitForDelivery(created.id, (d) => d.status === 'succeeded');

    // The document as the office got it, from the delivery log.
    const res = await documentOf(created.id, delivery.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('inspection-Acme Heating.pdf');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(pdf!.content);
    // Another organization's: as unknown.
    const other = await createOrganization(sys.api, sys.adminToken, 'Someone else');
    expect((await documentOf(created.id, delivery.id, other.token)).status).toBe(404);
  });

  it('attaches a .docx of the same content, or a Word template given as a resource with its placeholders filled', async () => {
    const plainTo = mailbox();
    await destination({ destination: { format_selection: 'word_format', transport_selection: 'email_transport' }, word_format: { file_name_template: 'My_Doc' }, email_transport: { to_addresses: plainTo } });
    const { Document, Packer, Paragraph } = await import('docx');
    const template = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('Report for {customer_name} ({form_name})'), new Paragraph('{#parts}Part {part_no}: {qty}{/parts}'), new Paragraph('Phone {contact.phone}')] }] }),
    );
    const upload = await sys.api.post('/api/resources.json', {
      token: sys.org.token,
      json: { resource: { description: 'report template', file: { file_name: 'report.docx', file_data: Buffer.from(template).toString('base64'), content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } } },
    });
    expect(upload.status).toBe(201);
    const templatedTo = mailbox();
    await destination({
      destination: { format_selection: 'word_format', transport_selection: 'email_transport' },
      word_format: { template_resource_id: upload.json().resource.id },
      email_transport: { to_addresses: templatedTo },
    });
    await submit();

    const [plain] = await mailsTo(plainTo);
    const [docx] = plain!.parsed.attachments;
    expect(docx!.filename).toBe('My_Doc.docx');
    expect(docx!.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const plainText = docxText(docx!.content);
    expect(plainText).toContain('Boiler inspection');
    expect(plainText).toContain('Customer: Acme Heating');
    expect(plainText).toContain('Comments: Pressure low; valve <B> & "seal" replaced');
    expect(plainText).toMatch(/Parts 1\nPart: VALVE-7\nQuantity: 2\nParts 2\nPart: SEAL-3\nQuantity: 5/);

    const [templated] = await mailsTo(templatedTo);
    const filled = docxText(templated!.parsed.attachments[0]!.content);
    expect(filled).toBe('Report for Acme Heating (Boiler inspection)\nPart VALVE-7: 2Part SEAL-3: 5\nPhone 555-0100');
  });

  it.each([
    ['an unknown format', { destination: { format_selection: 'fax_format', transport_selection: 'email_transport' }, email_transport: { to_addresses: 'a@example.test' } }, 'destination.format_selection'],
    ['an unknown transport', { destination: { format_selection: 'text_format', transport_selection: 'pigeon_transport' } }, 'destination.transport_selection'],
    ['no to_addresses', { destination: { format_selection: 'text_format', transport_selection: 'email_transport' }, email_transport: { from_name: 'x' } }, 'email_transport.to_addresses'],
    ['an address that is none', { destination: { format_selection: 'text_format', transport_selection: 'email_transport' }, email_transport: { to_addresses: 'bob at example' } }, 'email_transport.to_addresses'],
    ['a subject template that does not parse', { destination: { format_selection: 'text_format', transport_selection: 'email_transport' }, email_transport: { to_addresses: 'a@example.test', subject_template: '{{ customer_name ' } }, 'email_transport.subject_template'],
    ['a text template that does not parse', { destination: { format_selection: 'text_format', transport_selection: 'email_transport' }, text_format: { template: '{% for %}' }, email_transport: { to_addresses: 'a@example.test' } }, 'text_format.template'],
    ['text_format over http', { destination: { format_selection: 'text_format', transport_selection: 'http_transport' }, http_transport: { uri: 'https://example.com/' } }, 'destination.format_selection'],
    ['a binary transport', { destination: { format_selection: 'pdf_format', transport_selection: 'email_transport', binary_transport_selection: 'binary_google_drive_transport' }, email_transport: { to_addresses: 'a@example.test' } }, 'destination.binary_transport_selection'],
    ['a custom SMTP server without its address', { destination: { format_selection: 'pdf_format', transport_selection: 'email_transport' }, email_transport: { to_addresses: 'a@example.test', via_custom_smtp: true } }, 'email_transport.smtp_address'],
  ])('refuses %s with 400 naming the field, and makes nothing', async (_name, body, field) => {
    const before = (await sys.api.get(`/api/forms/${form.id}/destinations.json`, { token: sys.org.token })).json().destinations.length;
    const res = await createDestination(body);
    expect(res.status).toBe(400);
    expect(res.text).toContain(field);
    expect((await sys.api.get(`/api/forms/${form.id}/destinations.json`, { token: sys.org.token })).json().destinations).toHaveLength(before);
  });
});
