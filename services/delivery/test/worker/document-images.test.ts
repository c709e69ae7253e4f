import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { InProcessBus, withAttachment } from '@formcast/bus';
import { directoryCommands, submissionImageCommands, type Envelope, type GetSubmissionImagePayload } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { jpegImage } from '../../../../test/fixtures/resource-files';
import { pngPicture } from '../../../../test/fixtures/pictures';
import { newDelivery } from '../../src/domain/render-delivery';
import type { Destination, FormatParameters } from '../../src/domain/records';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { RenderPool } from '../../src/render/render-pool';
import { SecretCipher } from '../../src/secrets';
import { SqliteDeliveryStore } from '../../src/store';
import { documentOf } from '../../src/worker/delivery-document';
import { submission } from '../domain/submission-fixture';

/** `pdfimages -list` (poppler-utils): one row per image the PDF really holds, with its size. */
function pdfImages(bytes: Buffer): Array<{ width: number; height: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-pdfimages-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    const rows = execFileSync('pdfimages', ['-list', join(dir, 'in.pdf')], { encoding: 'utf8' }).trim().split('\n').slice(2);
    return rows.map((row) => row.trim().split(/\s+/)).map((cells) => ({ width: Number(cells[3]), height: Number(cells[4]) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-pdftext-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    return execFileSync('pdftotext', [join(dir, 'in.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const form = {
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'site_photo', title: 'Site photo', type: 'image' },
    { identifier: 'signature', title: 'Signature', type: 'signature' },
    { identifier: 'sketch', title: 'Sketch', type: 'sketch' },
  ],
};

describe('images in documents', () => {
  let dir: string;
  let store: SqliteDeliveryStore;
  let bus: InProcessBus;
  const render = new RenderPool({ workers: 1, timeoutMs: 20_000, memoryMb: 128 });
  const photo = pngPicture(120, 80);
  const asked: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'document-images-'));
    store = new SqliteDeliveryStore(join(dir, 'delivery.sqlite'), new SecretCipher(Buffer.alloc(32, 7)));
    bus = new InProcessBus();
    bus.handleCommand('directory', directoryCommands.getForm, async () => form);
    // Push's side of the port (its upload routes are another piece of work): the images it keeps, by submission and identifier.
    bus.handleCommand('push', submissionImageCommands.getSubmissionImage, async (command: Envelope) => {
      const { submissionId, imageIdentifier } = command.payload as GetSubmissionImagePayload;
      asked.push(`${submissionId}/${imageIdentifier}`);
      if (imageIdentifier === 'photo-1.png') return withAttachment({ contentType: 'image/png' }, photo);
      throw new AppError('not_found', `no image ${imageIdentifier}`);
    });
    await bus.start();
  });

  afterAll(async () => {
    await render.close();
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const answers = {
    customer_name: 'Acme',
    site_photo: 'photo-1.png',
    signature: `data:image/jpeg;base64,${jpegImage().toString('base64')}`,
    sketch: 'sketch-9.jpg',
  };

  async function documentFor(format: Destination['format'], formatParameters: FormatParameters = {}, transport: Destination['transport'] = { type: 'email_transport', parameters: { to_addresses: 'office@example.test' } }) {
    const destination = await store.destinations.createDestination({ orgId: 3, formId: 9, description: null, format, formatParameters, transport, secrets: newSigningSecrets() }, randomUUID());
    const payload = submission({ submissionId: 40 + destination.id, answers });
    await store.queue.createDeliveries([newDelivery(payload, destination)], Date.now());
    const [claimed] = await store.queue.claim([(await store.queue.dueDeliveries(Date.now(), 10, 10)).find((due) => due.destinationId === destination.id)!.id], Date.now(), Date.now() + 60_000);
    return documentOf({ store, render, bus, commandTimeoutMs: 2000, now: Date.now }, claimed!.delivery, claimed!.destination);
  }

  it('draws an image uploaded apart (asked of push) and one carried in the answer into the PDF; one not uploaded yet is a placeholder saying so', async () => {
    const document = await documentFor('pdf_format');
    const images = pdfImages(document.bytes);
    expect(images).toEqual(expect.arrayContaining([{ width: 120, height: 80 }, { width: 8, height: 8 }]));
    expect(images).toHaveLength(2);
    const text = pdfText(document.bytes);
    expect(text).toContain('Site photo');
    expect(text).toContain('image sketch-9.jpg: not received yet');
    expect(asked).toEqual(expect.arrayContaining([expect.stringMatching(/\/photo-1\.png$/), expect.stringMatching(/\/sketch-9\.jpg$/)]));
  });

  it('leaves them out of the PDF when pdf_format.include_images is false, naming them', async () => {
    const document = await documentFor('pdf_format', { include_images: false });
    expect(pdfImages(document.bytes)).toEqual([]);
    expect(pdfText(document.bytes)).toMatch(/image photo-1\.png: not included/);
  });

  it('puts them in the .docx (word/media), the missing one named', async () => {
    const document = await documentFor('word_format');
    const zip = new PizZip(document.bytes);
    const media = Object.keys(zip.files).filter((name) => name.startsWith('word/media/'));
    expect(media).toHaveLength(2);
    const stored = media.map((name) => zip.file(name)!.asNodeBuffer());
    expect(stored).toEqual(expect.arrayContaining([photo, jpegImage()]));
    expect(zip.file('word/document.xml')!.asText()).toContain('[image sketch-9.jpg: not received yet]');
  });

  it('attaches them beside a text email only with text_format.include_images, shown by Content-ID in an HTML body', async () => {
    const plain = await documentFor('text_format');
    expect(plain.message.images).toBeUndefined();
    expect(plain.message.text).toContain('Site photo: [image photo-1.png]');
    const withImages = await documentFor('text_format', { include_images: true, template: '<p>{{ customer_name }}</p>', render_template_as_html: true });
    expect(withImages.message.images!.map((image) => [image.fileName, image.contentType, Buffer.from(image.base64, 'base64')])).toEqual([
      ['photo-1.png', 'image/png', photo],
      ['signature.jpg', 'image/jpeg', jpegImage()],
    ]);
    expect(withImages.message.html).toContain(`<img src="cid:${withImages.message.images![0]!.cid}"`);
  });

  it('draws a placeholder when nothing serves the images (push without the image routes), and the document still goes', async () => {
    const bare = new InProcessBus();
    bare.handleCommand('directory', directoryCommands.getForm, async () => form);
    await bare.start();
    try {
      const destination = await store.destinations.createDestination({ orgId: 3, formId: 9, description: null, format: 'pdf_format', formatParameters: {}, transport: { type: 'email_transport', parameters: { to_addresses: 'o@example.test' } }, secrets: newSigningSecrets() }, randomUUID());
      await store.queue.createDeliveries([newDelivery(submission({ submissionId: 900, answers }), destination)], Date.now());
      const due = (await store.queue.dueDeliveries(Date.now(), 10, 10)).find((candidate) => candidate.destinationId === destination.id)!;
      const [claimed] = await store.queue.claim([due.id], Date.now(), Date.now() + 60_000);
      const document = await documentOf({ store, render, bus: bare, commandTimeoutMs: 2000, now: Date.now }, claimed!.delivery, claimed!.destination);
      expect(pdfImages(document.bytes)).toEqual([{ width: 8, height: 8 }]);
      expect(pdfText(document.bytes)).toContain('image photo-1.png: not available');
    } finally {
      await bare.close();
    }
  });
});
