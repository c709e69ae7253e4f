/*
 * The render worker, plain JavaScript evaluated by `new Worker(source, {eval: true})`, so it
 * runs the same from dist/ and under jest (as packages/storage's checkpointer and the trace
 * export worker do). It turns one delivery's model (domain/document-model.ts) into the email
 * and its document: liquid templates (liquidjs, with its own render and memory limits),
 * the PDF (pdfkit), the .docx (docx; a .docx template's placeholders filled by docxtemplater).
 * The pool (render-pool.ts) bounds it from outside: a heap limit, and a time limit past which
 * the worker is ended.
 *
 * In: {id, task} (a RenderTask). Out: {id, result} (a RenderedEmail, bytes transferred) or {id, error}.
 */
export function renderWorkerSource(documentFunctions: () => unknown): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
// domain/document-model.ts's documentFunctions, its own source: the layout of a document.
const { documentModel, documentText, templateContext, answerText, findAnswer, imageSize, referencedImages } = (${documentFunctions.toString()})();
const { Liquid } = require(workerData.modules.liquidjs);
const PDFDocument = require(workerData.modules.pdfkit);
// The .docx libraries, loaded at the first .docx: a worker rendering PDFs only never holds them (~5 MB).
const wordLibraries = () => ({ docx: require(workerData.modules.docx), PizZip: require(workerData.modules.pizzip), Docxtemplater: require(workerData.modules.docxtemplater) });

const liquid = new Liquid({
  strictFilters: true,
  cache: false,
  ownPropertyOnly: true,
  renderLimit: workerData.renderLimitMs,
  memoryLimit: 1e7,
});

function renderTemplate(template, context) {
  return liquid.parseAndRender(template, context);
}

async function fileName(task, fallback, extension) {
  const template = task.formatParameters && task.formatParameters.file_name_template;
  let name = template ? (await renderTemplate(template, task.context)).trim() : fallback;
  name = name.replace(/[\\\\/:*?"<>|\\u0000-\\u001f]+/g, '_').slice(0, 150) || fallback;
  return name.toLowerCase().endsWith(extension) ? name : name + extension;
}

// ---- images ------------------------------------------------------------------------------
/**
 * An image item's bytes: the answer's own (inline), or what push gave for its identifier
 * (task.images: name -> bytes, or why there are none: 'not received yet', …). Either {bytes, size}
 * (a JPEG or PNG, drawable) or {missing: why} (drawn as a labelled placeholder).
 */
function imageOf(item, task) {
  let bytes = null;
  if (item.inline) bytes = Buffer.from(item.inline.base64, 'base64');
  else if (task.images && task.images[item.name] instanceof Uint8Array) bytes = Buffer.from(task.images[item.name]);
  if (!bytes) {
    const asked = task.images ? task.images[item.name] : undefined;
    return { missing: typeof asked === 'string' ? asked : 'not included' };
  }
  const size = imageSize(bytes);
  return size ? { bytes, size } : { missing: 'not a JPEG or PNG' };
}

/** Every image item of the model, depth first (text_format's include_images attaches them). */
function imageItems(items, found = []) {
  for (const item of items) {
    if (item.kind === 'image') found.push(item);
    else if (item.kind === 'subform') imageItems(item.items, found);
    else if (item.kind === 'group') item.repetitions.forEach((repetition) => imageItems(repetition, found));
  }
  return found;
}

const safeName = (name) => String(name).replace(/[\\\\/:*?"<>|\\u0000-\\u001f]+/g, '_').slice(-150) || 'image';

// ---- PDF ----------------------------------------------------------------------------------
function pdf(model, createdAt, task, drawImages) {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      info: { Title: model.title, Creator: 'Formcast', Producer: 'Formcast', CreationDate: new Date(createdAt) },
    });
    const chunks = [];
    doc.on('data', (chunk) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const left = doc.page.margins.left;
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    doc.font('Helvetica-Bold').fontSize(18).fillColor('#1f2937').text(model.title, { width });
    doc.moveDown(0.4);
    doc.fontSize(9).fillColor('#4b5563');
    for (const [label, value] of model.meta) {
      doc.font('Helvetica-Bold').text(label + ': ', left, undefined, { continued: true, width }).font('Helvetica').text(value);
    }
    doc.moveDown(0.6);
    const y = doc.y;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor('#9ca3af').stroke();
    doc.moveDown(0.8);
    const walk = (items, depth) => {
      const x = left + depth * 16;
      const w = width - depth * 16;
      for (const item of items) {
        if (item.kind === 'answer') {
          doc.fontSize(10).fillColor('#111827').font('Helvetica-Bold').text(item.label, x, undefined, { width: w });
          doc.font('Helvetica').fillColor('#374151').text(item.value === '' ? '-' : item.value, x, undefined, { width: w });
          doc.moveDown(0.4);
        } else if (item.kind === 'image') {
          doc.fontSize(10).fillColor('#111827').font('Helvetica-Bold').text(item.label, x, undefined, { width: w });
          const image = drawImages ? imageOf(item, task) : { missing: 'not included' };
          let drawn = false;
          if (image.bytes) {
            // At most 240 x 180 pt, never enlarged; on the next page when it does not fit here.
            const scale = Math.min(Math.min(240, w) / image.size.width, 180 / image.size.height, 1);
            const width = image.size.width * scale;
            const height = image.size.height * scale;
            if (doc.y + height + 4 > doc.page.height - doc.page.margins.bottom) doc.addPage();
            try {
              doc.image(image.bytes, x, doc.y + 2, { width, height });
              doc.y += height + 6;
              drawn = true;
            } catch (error) {
              image.missing = 'could not be drawn';
            }
          }
          if (!drawn) {
            const top = doc.y + 2;
            doc.rect(x, top, Math.min(200, w), 40).lineWidth(0.5).strokeColor('#9ca3af').stroke();
            doc.font('Helvetica').fontSize(8).fillColor('#6b7280').text('image ' + item.name + ': ' + image.missing, x + 6, top + 15, { width: Math.min(200, w) - 12 });
            doc.y = top + 46;
          }
          doc.moveDown(0.4);
        } else if (item.kind === 'subform') {
          doc.fontSize(11).fillColor('#1f2937').font('Helvetica-Bold').text(item.label, x, undefined, { width: w, underline: true });
          doc.moveDown(0.3);
          walk(item.items, depth + 1);
        } else if (item.kind === 'group') {
          item.repetitions.forEach((repetition, index) => {
            doc.fontSize(11).fillColor('#1f2937').font('Helvetica-Bold').text(item.label + ' ' + (index + 1), x, undefined, { width: w, underline: true });
            doc.moveDown(0.3);
            walk(repetition, depth + 1);
          });
        }
      }
    };
    walk(model.items, 0);
    doc.end();
  });
}

// ---- .docx --------------------------------------------------------------------------------
function docxOf(model, task) {
  const { Document, Packer, Paragraph, TextRun, HeadingLevel, ImageRun } = wordLibraries().docx;
  const children = [new Paragraph({ text: model.title, heading: HeadingLevel.TITLE })];
  for (const [label, value] of model.meta) {
    children.push(new Paragraph({ children: [new TextRun({ text: label + ': ', bold: true }), new TextRun(value)] }));
  }
  const walk = (items, depth) => {
    const indent = { left: depth * 360 };
    for (const item of items) {
      if (item.kind === 'image') {
        const image = imageOf(item, task);
        if (image.bytes) {
          // At most 320 x 240 px (Word's 96 dpi), never enlarged; kept in word/media/.
          const scale = Math.min(320 / image.size.width, 240 / image.size.height, 1);
          children.push(new Paragraph({ indent, children: [new TextRun({ text: item.label + ':', bold: true })] }));
          children.push(new Paragraph({ indent, children: [new ImageRun({ type: image.size.type === 'png' ? 'png' : 'jpg', data: image.bytes, transformation: { width: Math.max(1, Math.round(image.size.width * scale)), height: Math.max(1, Math.round(image.size.height * scale)) }, altText: { name: item.name, description: item.label, title: item.name } })] }));
        } else {
          children.push(new Paragraph({ indent, children: [new TextRun({ text: item.label + ': ', bold: true }), new TextRun('[image ' + item.name + ': ' + image.missing + ']')] }));
        }
      } else if (item.kind === 'answer') {
        children.push(new Paragraph({ indent, children: [new TextRun({ text: item.label + ': ', bold: true }), new TextRun(item.value)] }));
      } else if (item.kind === 'subform') {
        children.push(new Paragraph({ indent, heading: HeadingLevel.HEADING_2, text: item.label }));
        walk(item.items, depth + 1);
      } else if (item.kind === 'group') {
        item.repetitions.forEach((repetition, index) => {
          children.push(new Paragraph({ indent, heading: HeadingLevel.HEADING_2, text: item.label + ' ' + (index + 1) }));
          walk(repetition, depth + 1);
        });
      }
    }
  };
  walk(model.items, 0);
  const doc = new Document({ creator: 'Formcast', title: model.title, sections: [{ children }] });
  return Packer.toBuffer(doc);
}

function docxFromTemplate(template, context) {
  const { PizZip, Docxtemplater } = wordLibraries();
  const zip = new PizZip(template);
  // {question}, {subform.question}, {#group}…{/group}: a dotted path into the answers.
  const parser = (tag) => ({
    get: (scope) => (tag === '.' ? scope : tag.trim().split('.').reduce((value, key) => (value == null || !Object.hasOwn(Object(value), key) ? undefined : value[key]), scope)),
  });
  const filled = new Docxtemplater(zip, { paragraphLoop: true, linebreaks: true, nullGetter: () => '', parser });
  filled.render(context);
  return filled.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

// ---- the email ----------------------------------------------------------------------------
const contentTypes = {
  pdf_format: 'application/pdf',
  word_format: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  json_format: 'application/json',
  xml_format: 'application/xml',
};

async function render(input) {
  const submission = JSON.parse(input.submissionJson);
  const p = input.formatParameters || {};
  const model = documentModel(submission, { locationInCoordinates: p.location_in_coordinate_format === true, outline: input.outline });
  // Images: drawn into a PDF (unless pdf_format.include_images is false) and a .docx, attached
  // to a text email when text_format.include_images. Those uploaded apart are asked of push
  // by the caller, which renders again with them (task.images).
  const drawImages = input.format === 'word_format' || (input.format === 'pdf_format' && p.include_images !== false) || (input.format === 'text_format' && p.include_images === true);
  if (drawImages && !input.images) {
    const wanted = referencedImages(model);
    if (wanted.length > 0) return { wantImages: wanted };
  }
  const task = {
    ...input,
    model,
    drawImages,
    context: templateContext(submission),
    defaultText: documentText(model, { answerAttributes: input.format === 'text_format' && p.include_answer_attributes === true }),
    defaultSubject: submission.formName + ': submission ' + submission.submissionId + ' from ' + submission.deviceIdentifier,
    defaultFileName: (submission.formName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'submission') + '-' + submission.submissionId,
    createdAt: submission.receivedAt,
  };
  const answeredTo = input.toAddressFormField ? answerText(findAnswer(submission.answers, input.toAddressFormField)) : null;
  return { ...(await renderDocument(task, p)), answeredTo, device: submission.deviceIdentifier };
}

async function renderDocument(task, p) {
  const subject = task.subjectTemplate ? (await renderTemplate(task.subjectTemplate, task.context)).replace(/[\\r\\n]+/g, ' ').trim() : task.defaultSubject;
  let text;
  let html = null;
  let document;
  if (task.format === 'text_format') {
    const intro = p.text_intro ? p.text_intro + '\\n\\n' : '';
    if (p.template && p.custom_text_content !== false) {
      const rendered = await renderTemplate(p.template, task.context);
      if (p.render_template_as_html) {
        html = rendered;
        text = intro + task.defaultText;
      } else {
        text = intro + rendered;
      }
    } else {
      text = intro + task.defaultText;
    }
    document = html === null
      ? { fileName: 'submission.txt', contentType: 'text/plain; charset=utf-8', bytes: Buffer.from(text, 'utf8') }
      : { fileName: 'submission.html', contentType: 'text/html; charset=utf-8', bytes: Buffer.from(html, 'utf8') };
    if (task.bodyTemplate) text = await renderTemplate(task.bodyTemplate, task.context);
    const images = [];
    if (task.drawImages) {
      for (const item of imageItems(task.model.items)) {
        const image = imageOf(item, task);
        if (!image.bytes) continue;
        const cid = 'image-' + (images.length + 1) + '@formcast';
        images.push({ fileName: safeName(item.name), contentType: image.size.type === 'png' ? 'image/png' : 'image/jpeg', bytes: new Uint8Array(image.bytes), cid, label: item.label });
      }
      // An HTML body shows them where it ends, by Content-ID; a text body names them (attached).
      if (html !== null && images.length > 0) {
        html += images.map((image) => '<p><strong>' + image.label.replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';') + '</strong><br><img src="cid:' + image.cid + '" alt="' + image.fileName.replace(/[&<>"]/g, '_') + '"></p>').join('');
      }
    }
    return { subject, text, html, document, attach: false, images };
  }
  const base = task.defaultFileName;
  let bytes;
  let name;
  if (task.format === 'pdf_format') {
    bytes = await pdf(task.model, task.createdAt, task, task.drawImages);
    name = await fileName(task, base, '.pdf');
  } else if (task.format === 'word_format') {
    bytes = task.wordTemplate ? docxFromTemplate(Buffer.from(task.wordTemplate), task.context) : await docxOf(task.model, task);
    name = await fileName(task, base, '.docx');
  } else {
    bytes = Buffer.from(task.rawBody, 'utf8');
    name = base + (task.format === 'json_format' ? '.json' : '.xml');
  }
  text = task.bodyTemplate ? await renderTemplate(task.bodyTemplate, task.context) : task.defaultText;
  return { subject, text, html, document: { fileName: name, contentType: contentTypes[task.format], bytes }, attach: true, images: [] };
}

parentPort.on('message', ({ id, task }) => {
  render(task).then(
    (result) => {
      if (result.wantImages) return parentPort.postMessage({ id, result });
      const bytes = new Uint8Array(result.document.bytes);
      parentPort.postMessage({ id, result: { ...result, document: { ...result.document, bytes } } }, [bytes.buffer]);
    },
    (error) => parentPort.postMessage({ id, error: String((error && error.message) || error).split('\\n')[0] }),
  );
});
`;
}
