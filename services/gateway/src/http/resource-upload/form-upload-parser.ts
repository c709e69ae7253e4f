import { randomUUID } from 'node:crypto';
import { parse as parseQueryString } from 'qs';
import { Base64Decoder } from './base64-decoder';
import { FieldBudget } from './field-budget';
import type { UploadParser, UploadParserOptions } from './upload-parser';

/** As readBody parses forms (request-body.ts). */
const formParseOptions = { depth: 8, parameterLimit: 1000, arrayLimit: 1000, allowPrototypes: false };

function child(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Whether qs puts the value of a parameter with this (raw) name at resource.file.file_data, or inside it. */
function namesFileData(rawKey: string): boolean {
  const alone = parseQueryString(`${rawKey}=x`, formParseOptions);
  return child(child(alone['resource'], 'file'), 'file_data') !== undefined;
}

/** The value of a hexadecimal digit's character code, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/**
 * `resource[description]=…&resource[file][file_data]=…` read as it arrives. The parameter
 * that qs would put at resource.file.file_data is percent-decoded, as it arrives, into a
 * Base64Decoder; every other parameter is held as sent, within the FieldBudget, and laid out
 * by qs itself at the end, exactly as readBody does, so the same forms mean the same fields.
 * (One difference: qs splits a parameter at a `]=` after its first `=` when the name does not
 * end in `]`; the streamed parameter is split at its first `=`, as its value holds no `]`
 * when it is Base64.)
 */
export function formUploadParser(options: UploadParserOptions): UploadParser {
  const budget = new FieldBudget();
  /** The parameters as sent, each streamed one as its name and a stand-in for its decoder. */
  const parameters: string[] = [];
  const decoders: Base64Decoder[] = [];
  // Unguessable, so that no value sent can pass for one.
  const standIn = `streamed-${randomUUID()}-`;
  let seen = 0;
  let phase: 'name' | 'value' | 'fileData' | 'pastLimit' = 'name';
  let name = '';
  let value = '';
  let decoder: Base64Decoder | undefined;
  /** Within a `%` escape of file_data: how many of its two digits were read (-1: none), and their value. */
  let escapeDigits = -1;
  let escapeValue = 0;

  const startFileData = () => {
    decoder = new Base64Decoder({ ...options, spaceIsPlus: true });
    decoders.push(decoder);
    phase = 'fileData';
  };

  const endParameter = () => {
    if (phase === 'name' && name !== '') {
      if (namesFileData(name)) startFileData(); // a name alone: an empty value
      else parameters.push(name);
    }
    if (phase === 'value') parameters.push(`${name}=${value}`);
    if (phase === 'fileData') {
      if (escapeDigits >= 0) decoder!.write('%'); // a cut escape: not Base64, as qs would leave it
      decoder!.end();
      parameters.push(`${name}=${standIn}${decoders.length - 1}`);
    }
    name = '';
    value = '';
    escapeDigits = -1;
    // qs reads the first parameterLimit parameters and drops the rest.
    phase = ++seen >= formParseOptions.parameterLimit ? 'pastLimit' : 'name';
  };

  /** Percent-decodes text[start, end) into the decoder: an escape that is not ASCII is never Base64. */
  const decodeFileData = (text: string, start: number, end: number) => {
    while (start < end) {
      if (escapeDigits >= 0) {
        const digit = hexValue(text.charCodeAt(start++));
        if (digit < 0) {
          decoder!.write('%'); // malformed: qs would leave the value as it is, so not Base64
          escapeDigits = -1;
          continue;
        }
        escapeValue = 16 * escapeValue + digit;
        if (++escapeDigits === 2) {
          decoder!.write(escapeValue < 0x80 ? String.fromCharCode(escapeValue) : '%');
          escapeDigits = -1;
        }
        continue;
      }
      const percent = text.indexOf('%', start);
      const runEnd = percent === -1 || percent > end ? end : percent;
      // A raw + stays +: the decoder reads a space (a + that was not percent-encoded) as + too.
      if (runEnd > start) decoder!.write(start === 0 && runEnd === text.length ? text : text.slice(start, runEnd));
      if (runEnd === end) return;
      escapeDigits = 0;
      escapeValue = 0;
      start = percent + 1;
    }
  };

  /** qs's layout of the fields, each stand-in replaced by its decoder. */
  const withDecoders = (value: unknown): unknown => {
    if (typeof value === 'string') return value.startsWith(standIn) ? decoders[Number(value.slice(standIn.length))] : value;
    if (typeof value === 'object' && value !== null) {
      const container = value as Record<string, unknown>;
      for (const key of Object.keys(container)) container[key] = withDecoders(container[key]);
    }
    return value;
  };

  const write = (text: string) => {
    let start = 0;
    while (start < text.length && phase !== 'pastLimit') {
      const amp = text.indexOf('&', start);
      const end = amp === -1 ? text.length : amp;
      if (phase === 'name') {
        const equals = text.indexOf('=', start);
        const nameEnd = equals !== -1 && equals < end ? equals : end;
        budget.spend(nameEnd - start);
        name += text.slice(start, nameEnd);
        if (nameEnd < end) {
          budget.spend(1);
          if (namesFileData(name)) startFileData();
          else phase = 'value';
          start = nameEnd + 1;
          continue;
        }
      } else if (phase === 'value') {
        budget.spend(end - start);
        value += text.slice(start, end);
      } else {
        decodeFileData(text, start, end);
      }
      if (amp === -1) return;
      budget.spend(1);
      endParameter();
      start = amp + 1;
    }
  };

  return {
    write,
    end: () => {
      if (phase !== 'pastLimit') endParameter();
      return withDecoders(parseQueryString(parameters.join('&'), formParseOptions));
    },
  };
}
