import { jsonTooDeep, maxJsonDepth } from '../json-depth';
import { Base64Decoder } from './base64-decoder';
import { FieldBudget } from './field-budget';
import { jsonTokenizer, type JsonToken } from './json-tokenizer';
import type { UploadParser, UploadParserOptions } from './upload-parser';

/** The keys leading from the body's root to the one value that is streamed. */
const fileDataPath = ['resource', 'file', 'file_data'];

interface OpenContainer {
  value: Record<string, unknown> | unknown[];
  /** In an object: the key whose value is being read. */
  key?: string;
}

/**
 * `{"resource": {"description": …, "file": {"file_name", "file_data", "content_type"}}}`
 * read as it arrives: the value is what JSON.parse makes of the body (duplicate keys: the
 * last wins), with the string at resource.file.file_data fed straight into a Base64Decoder
 * and everything else held, within the FieldBudget, at most 32 levels deep (as readBody).
 */
export function jsonUploadParser(options: UploadParserOptions): UploadParser {
  const budget = new FieldBudget();
  const open: OpenContainer[] = [];
  let root: unknown;
  /** The key, string or number being read. */
  let text = '';
  /** While the file's Base64 is read: where its characters go. */
  let decoder: Base64Decoder | undefined;

  const place = (value: unknown) => {
    const parent = open.at(-1);
    if (!parent) root = value;
    else if (Array.isArray(parent.value)) parent.value.push(value);
    // As JSON.parse does: an own property whatever the key, `__proto__` included.
    else Object.defineProperty(parent.value, parent.key!, { value, enumerable: true, writable: true, configurable: true });
  };
  const atFileData = () =>
    open.length === fileDataPath.length && open.every((container, i) => !Array.isArray(container.value) && container.key === fileDataPath[i]);

  const onToken = (token: JsonToken) => {
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        budget.spend(1);
        if (open.length === maxJsonDepth) throw jsonTooDeep();
        const value = token.name === 'startObject' ? {} : [];
        place(value);
        open.push({ value });
        return;
      }
      case 'endObject':
      case 'endArray':
        open.pop();
        return;
      case 'startString':
        if (atFileData()) {
          decoder = new Base64Decoder({ ...options, spaceIsPlus: false });
          place(decoder);
          return;
        }
        budget.spend(1);
        text = '';
        return;
      case 'startKey':
      case 'startNumber':
        budget.spend(1);
        text = '';
        return;
      case 'stringChunk':
      case 'numberChunk':
        if (decoder) {
          decoder.write(token.value);
        } else {
          budget.spend(token.value.length);
          text += token.value;
        }
        return;
      case 'endKey':
        open.at(-1)!.key = text;
        return;
      case 'endString':
        if (decoder) {
          decoder.end();
          decoder = undefined;
        } else {
          place(text);
        }
        return;
      case 'endNumber':
        place(Number(text));
        return;
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        budget.spend(1);
        place(token.value);
        return;
      default:
        return;
    }
  };

  const tokenizer = jsonTokenizer(onToken);
  return {
    write: (chunk) => tokenizer.write(chunk),
    end: () => {
      tokenizer.end();
      return root;
    },
  };
}
