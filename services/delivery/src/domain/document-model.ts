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
  | { kind: 'answer'; label: string; value: string }
  | { kind: 'image'; label: string; name: string }
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
      if (location !== null) return { kind: 'answer', label, value: location };
      return { kind: 'subform', label, items: itemsOf(value as Record<string, unknown>, options, children) };
    }
    const isImage = outline?.type ? imageTypes.has(outline.type) : typeof value === 'string' && imageName.test(value) && !/\s/.test(value);
    if (isImage && typeof value === 'string' && value !== '') return { kind: 'image', label, name: value };
    if (outline?.type === 'location' && typeof value === 'string') {
      const [lat, lon] = value.split(/[\s,]+/);
      if (lat && lon) return { kind: 'answer', label, value: `${lat}, ${lon}` };
    }
    return { kind: 'answer', label, value: answerText(value) };
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
  function documentText(model: DocumentModel): string {
    const lines: string[] = [model.title, ''];
    for (const [label, value] of model.meta) lines.push(`${label}: ${value}`);
    lines.push('');
    const walk = (items: DocumentItem[], indent: string) => {
      for (const item of items) {
        switch (item.kind) {
          case 'answer':
            lines.push(`${indent}${item.label}: ${item.value}`);
            break;
          case 'image':
            lines.push(`${indent}${item.label}: [image ${item.name}]`);
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

  return { documentModel, documentText, templateContext, answerText, questionLabel, findAnswer };
}

export const { documentModel, documentText, templateContext, answerText, questionLabel, findAnswer } = documentFunctions();
