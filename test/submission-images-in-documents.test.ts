import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@formcast/testing';
import { jpegPicture } from './fixtures/pictures';
import { enrollDevice } from './support/fixtures';
import { createTemplate } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * A submission that names its photo by identifier (v3/submission_image.md) waits for the
 * upload, then its document (a PDF over http_transport) draws the photo: delivery asks push
 * for it (`push.submission.image.get`), which serves the device's uploaded image.
 */

const pdfImages = (bytes: Buffer): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-image-doc-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    return execFileSync('pdfimages', ['-list', join(dir, 'in.pdf')], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2)
      .map((row) => row.trim().split(/\s+/))
      .map((cells) => `${cells[3]}x${cells[4]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

jest.setTimeout(60_000);

describe.each(systemModes)('Submission images in documents (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver?.close());

  it('a PDF of a submission that waited for its photo draws the photo uploaded apart', async () => {
    const device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    const form = await createTemplate(sys.api, sys.org, {
      type: 'root',
      title: `Site photo ${mode}`,
      children: [
        { identifier: 'site', title: 'Site', type: 'text' },
        { identifier: 'photo', title: 'Photo', type: 'image' },
      ],
    });
    const created = await sys.api.post(`/api/forms/${form.id}/destinations.json`, {
      token: sys.org.token,
      json: { destination: { format_selection: 'pdf_format', transport_selection: 'http_transport' }, http_transport: { uri: receiver.url(`/pdf-${mode}`) } },
    });
    expect(created.status).toBe(201);
    const submitted = await sys.api.post(`/api/v3/devices/${device.identifier}/submissions.json`, {
      token: sys.org.token,
      json: { payload: `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${form.namespace}' submissionIdentifier='visit-${mode}'><site>North yard</site><photo>photo-1.jpg</photo></instance>` },
    });
    expect(submitted.status).toBe(202);
    const photo = await jpegPicture(120);
    const uploaded = await sys.api.post(`/api/v3/devices/${device.identifier}/submission_images.json?image_identifier=photo-1.jpg&submission_identifer=visit-${mode}`, {
      token: sys.org.token,
      body: photo,
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(uploaded.status).toBe(202);
    const [pdf] = await waitFor(() => (receiver.received(`/pdf-${mode}`).length > 0 ? receiver.received(`/pdf-${mode}`) : undefined), {
      description: 'the PDF',
      timeoutMs: 30_000,
    });
    expect(pdf!.headers['content-type']).toBe('application/pdf');
    const images = pdfImages(pdf!.rawBody);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^120x\d+$/);
  });
});
