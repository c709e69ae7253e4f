import type { SubmissionReceivedPayload } from '@formcast/contracts';

/**
 * What a document shows of a submission, laid out once for every format (PDF, .docx, text):
 * the form's name, the device and the times, then every question with its answer in the
 * order the submission has them (the form's). A subform is a titled block of its own
 * answers; a repeating group one block per repetition.
 */
export interface DocumentModel {
  title: string;
  /** [label, value] */
  meta: Array<[string, string]>;
  items: DocumentItem[];
}

export type DocumentItem =
  | { kind: 'answer'; label: string; value: string; question?: string; type?: string | null }
  /**
   * An image, sketch or signature. `inline`: the answer carried the image itself (Base64, or a
   * `data:` URL, of a JPEG or PNG), named `<question>.jpg`/`.png`; otherwise `name` is the
   * identifier the device uploads the image under (submission_image.md), asked of push.
   */
  | { kind: 'image'; label: string; name: string; inline?: { base64: string; type: 'jpeg' | 'png' }; question?: string; type?: string | null }
  | { kind: 'subform'; label: string; items: DocumentItem[] }
  | { kind: 'group'; label: string; repetitions: DocumentItem[][] };

/** The form's questions as its definition has them (directory's form definition): their order, titles and types. */
export interface FormQuestion {
  identifier: string;
  title: string | null;
  type: string | null;
  children: FormQuestion[];
}

/** A definition's questions (`children`, nested), as far as they are well formed; anything else is left out. */
export function formOutline(definition: unknown): FormQuestion[] {
  const children = (definition as { children?: unknown } | null)?.children;
  if (!Array.isArray(children)) return [];
  return children.flatMap((child): FormQuestion[] => {
    const node = child as { identifier?: unknown; title?: unknown; type?: unknown };
    if (typeof node?.identifier !== 'string') return [];
    return [
      {
        identifier: node.identifier,
        title: typeof node.title === 'string' && node.title.trim() !== '' ? node.title : null,
        type: typeof node.type === 'string' ? node.type : null,
        children: formOutline(child),
      },
    ];
  });
}

export interface ModelOptions {
  /** Locations as coordinates even when the submission carries an address. */
  locationInCoordinates?: boolean;
  /** The form's questions: titles as labels, their order, their types. Without it, identifiers in the submission's order. */
  outline?: FormQuestion[];
}

/** How the text is written: `answerAttributes` (text_format.include_answer_attributes) adds each answer's question identifier and type. */
export interface TextOptions {
  answerAttributes?: boolean;
}

/**
 * The model's functions in one closure with no outside reference: the render worker (plain
 * JavaScript, render-worker-source.ts) runs this function's own source, so a document is
 * laid out there, off the event loop, by the same code the tests here check.
 */
export function documentFunctions() {
  /** `Basic_Question` → `Basic question`: a question's identifier as a label, when the form gives no title. */
  function questionLabel(identifier: string): string {
    const words = identifier.replace(/[_-]+/g, ' ').trim() || identifier;
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  const imageTypes = new Set(['image', 'sketch', 'signature', 'photo']);

  const imageName = /\.(jpe?g|png|gif|webp|heic)$/i;

  /** An answer that is the image itself: Base64 of a JPEG (`/9j/`) or a PNG (`iVBORw0KGgo`), bare or as a `data:image/…;base64,` URL. */
  function inlineImage(value: string): { base64: string; type: 'jpeg' | 'png' } | null {
    if (value.length < 16) return null;
    const base64 = value.replace(/^data:image\/(?:png|jpe?g);base64,/i, '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
    if (base64.startsWith('/9j/')) return { base64, type: 'jpeg' };
    if (base64.startsWith('iVBORw0KGgo')) return { base64, type: 'png' };
    return null;
  }

  /** A JPEG's or PNG's kind and size in pixels, from its header; null for anything else (not drawn). */
  function imageSize(bytes: Uint8Array): { type: 'jpeg' | 'png'; width: number; height: number } | null {
    const at = (i: number) => bytes[i] ?? 0;
    if (bytes.length > 24 && at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) {
      const width = ((at(16) << 24) | (at(17) << 16) | (at(18) << 8) | at(19)) >>> 0;
      const height = ((at(20) << 24) | (at(21) << 16) | (at(22) << 8) | at(23)) >>> 0;
      return width > 0 && height > 0 ? { type: 'png', width, height } : null;
    }
    if (at(0) !== 0xff || at(1) !== 0xd8) return null;
    let i = 2;
    while (i + 9 < bytes.length) {
      if (at(i) !== 0xff) return null;
      const marker = at(i + 1);
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      const length = (at(i + 2) << 8) | at(i + 3);
      // SOF0..SOF15, not DHT (C4), JPG (C8) or DAC (CC): the frame header has the size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = (at(i + 5) << 8) | at(i + 6);
        const width = (at(i + 7) << 8) | at(i + 8);
        return width > 0 && height > 0 ? { type: 'jpeg', width, height } : null;
      }
      i += 2 + length;
    }
    return null;
  }

  /** The images a model names but does not carry (uploaded apart): their identifiers, once each. */
  function referencedImages(model: DocumentModel): string[] {
    const names = new Set<string>();
    const walk = (items: DocumentItem[]) => {
      for (const item of items) {
        if (item.kind === 'image' && !item.inline) names.add(item.name);
        else if (item.kind === 'subform') walk(item.items);
        else if (item.kind === 'group') item.repetitions.forEach(walk);
      }
    };
    walk(model.items);
    return [...names];
  }

  /** A location as the device stores it: `lat,long[,alt,accuracy]`, or an object with latitude/longitude and maybe an address. */
  function locationText(value: Record<string, unknown>, coordinates: boolean): string | null {
    const lat = value['latitude'] ?? value['lat'];
    const lon = value['longitude'] ?? value['long'] ?? value['lng'];
    if (typeof lat !== 'number' && typeof lat !== 'string') return null;
    if (typeof lon !== 'number' && typeof lon !== 'string') return null;
    const address = value['address'];
    if (!coordinates && typeof address === 'string' && address.trim() !== '') return address;
    return `${lat}, ${lon}`;
  }


  function itemOf(question: string, value: unknown, options: ModelOptions, outline: FormQuestion | undefined): DocumentItem {
    const label = outline?.title ?? questionLabel(question);
    const children = outline?.children ?? [];
    if (Array.isArray(value) && value.every((entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry))) {
      return { kind: 'group', label, repetitions: value.map((entry) => itemsOf(entry as Record<string, unknown>, options, children)) };
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const location = locationText(value as Record<string, unknown>, options.locationInCoordinates === true);
      if (location !== null) return { kind: 'answer', label, value: location, question, type: outline?.type ?? 'location' };
      return { kind: 'subform', label, items: itemsOf(value as Record<string, unknown>, options, children) };
    }
    const type = outline?.type ?? null;
    const inline = typeof value === 'string' ? inlineImage(value) : null;
    const isImage = outline?.type ? imageTypes.has(outline.type) : typeof value === 'string' && ((imageName.test(value) && !/\s/.test(value)) || inline !== null);
    if (isImage && typeof value === 'string' && value !== '') {
      if (inline) return { kind: 'image', label, name: `${question}.${inline.type === 'png' ? 'png' : 'jpg'}`, inline, question, type };
      return { kind: 'image', label, name: value, question, type };
    }
    if (outline?.type === 'location' && typeof value === 'string') {
      // `lat=51.5, long=-0.12` (as devices send it) or `51.5,-0.12[,alt,accuracy]`.
      const [lat, lon] = value.replace(/\b(?:lat|long?|lng)\s*=\s*/gi, '').split(/[\s,]+/);
      if (lat && lon) return { kind: 'answer', label, value: `${lat}, ${lon}`, question, type };
    }
    return { kind: 'answer', label, value: answerText(value), question, type };
  }

  function answerText(value: unknown): string {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(answerText).join(', ');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  /** The answers in the form's order (then any the form does not name, as submitted). */
  function itemsOf(answers: Record<string, unknown>, options: ModelOptions, outline: FormQuestion[]): DocumentItem[] {
    const byId = new Map(outline.map((question) => [question.identifier, question]));
    const known = outline.filter((question) => Object.hasOwn(answers, question.identifier)).map((question) => question.identifier);
    const others = Object.keys(answers).filter((question) => !byId.has(question));
    return [...known, ...others].map((question) => itemOf(question, answers[question], options, byId.get(question)));
  }

  function documentModel(submission: SubmissionReceivedPayload, options: ModelOptions = {}): DocumentModel {
    return {
      title: submission.formName,
      meta: [
        ['Form', `${submission.formName} (version ${submission.formVersion})`],
        ['Device', submission.deviceOwner ? `${submission.deviceIdentifier} (${submission.deviceOwner})` : submission.deviceIdentifier],
        ['Submitted', submission.submittedAt],
        ['Received', submission.receivedAt],
        ['Submission', String(submission.submissionId)],
      ],
      items: itemsOf(submission.answers, options, options.outline ?? []),
    };
  }

  /** The model as readable text: `Label: answer`, blocks indented under their title. */
  function documentText(model: DocumentModel, options: TextOptions = {}): string {
    const lines: string[] = [model.title, ''];
    // include_answer_attributes: `Customer [customer_name, text]: Acme`.
    const named = (item: { label: string; question?: string; type?: string | null }) =>
      options.answerAttributes && item.question ? `${item.label} [${[item.question, item.type].filter(Boolean).join(', ')}]` : item.label;
    for (const [label, value] of model.meta) lines.push(`${label}: ${value}`);
    lines.push('');
    const walk = (items: DocumentItem[], indent: string) => {
      for (const item of items) {
        switch (item.kind) {
          case 'answer':
            lines.push(`${indent}${named(item)}: ${item.value}`);
            break;
          case 'image':
            lines.push(`${indent}${named(item)}: [image ${item.name}]`);
            break;
          case 'subform':
            lines.push(`${indent}${item.label}:`);
            walk(item.items, `${indent}  `);
            break;
          case 'group':
            item.repetitions.forEach((repetition, index) => {
              lines.push(`${indent}${item.label} ${index + 1}:`);
              walk(repetition, `${indent}  `);
            });
            break;
        }
      }
    };
    walk(model.items, '');
    return `${lines.join('\n')}\n`;
  }

  /**
   * What templates see (liquid): the metadata by the names of the JSON delivery's
   * `metadata`, `answers` (every answer by question identifier, as submitted), and each
   * answer again at the top level where no metadata name takes it: `{{form_name}}`,
   * `{{answers.Basic_Question}}`, `{{Basic_Question}}`.
   */
  function templateContext(submission: SubmissionReceivedPayload): Record<string, unknown> {
    const metadata = {
      form_name: submission.formName,
      form_namespace: submission.formNamespace,
      form_version: submission.formVersion,
      submission_id: submission.submissionId,
      device_id: submission.deviceIdentifier,
      username: submission.deviceOwner,
      submitted_at: submission.submittedAt,
      received_at: submission.receivedAt,
    };
    return { ...submission.answers, ...metadata, metadata, answers: submission.answers };
  }

  /** The answer of a question anywhere in the submission (the first found, depth first). */
  function findAnswer(answers: Record<string, unknown>, question: string): unknown {
    if (Object.hasOwn(answers, question)) return answers[question];
    for (const value of Object.values(answers)) {
      const nested = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? [value] : [];
      for (const entry of nested) {
        if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
          const found = findAnswer(entry as Record<string, unknown>, question);
          if (found !== undefined) return found;
        }
      }
    }
    return undefined;
  }

  return { documentModel, documentText, templateContext, answerText, questionLabel, findAnswer, imageSize, referencedImages, inlineImage };
}

export const { documentModel, documentText, templateContext, answerText, questionLabel, findAnswer, imageSize, referencedImages, inlineImage } = documentFunctions();
