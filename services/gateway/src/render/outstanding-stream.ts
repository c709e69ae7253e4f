import type { OutstandingOneshotView } from '@formcast/contracts';
import { escapeXmlText } from '@formcast/xml-writing';

/**
 * The organization listing (spec 2.8) written as it streams, page by page, byte for byte
 * what `renderOutstandingXml` / `res.json` make of the whole list (a test holds them equal).
 * `open` before the first item, `items` for each page, `close` after the last.
 */
export interface OutstandingListWriter<T = OutstandingOneshotView> {
  contentType: string;
  open(first: T[]): string;
  items(page: T[]): string;
  close(): string;
}

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
// The builder writes an empty text as a self-closed element.
const text = (name: string, value: string) => (value === '' ? `    <${name}/>\n` : `    <${name}>${escapeXmlText(value)}</${name}>\n`);
const integer = (name: string, value: number) => `    <${name} type="integer">${value}</${name}>\n`;

function formXml(o: OutstandingOneshotView): string {
  return (
    '  <form>\n' +
    text('description', o.description) +
    integer('device-id', o.device_id) +
    integer('id', o.id) +
    text('name', o.name) +
    text('namespace', o.namespace) +
    integer('organization-id', o.organization_id) +
    '  </form>\n'
  );
}

/** `<forms type="array"><form>…</form>…</forms>`, Rails style; `<forms type="array"/>` when empty. */
export function outstandingXmlWriter(): OutstandingListWriter {
  let empty = true;
  return {
    contentType: 'application/xml; charset=utf-8',
    open: (first) => {
      empty = first.length === 0;
      return declaration + (empty ? '<forms type="array"/>\n' : '<forms type="array">\n');
    },
    items: (page) => {
      let out = '';
      for (const o of page) out += formXml(o);
      return out;
    },
    close: () => (empty ? '' : '</forms>\n'),
  };
}

/** A JSON array, as `res.json(list)` writes it; with `key`, the array as that key's value of an object (`{"oneshots":[…]}`). */
export function outstandingJsonWriter<T = OutstandingOneshotView>(key?: string): OutstandingListWriter<T> {
  let written = 0;
  return {
    contentType: 'application/json; charset=utf-8',
    open: () => (key === undefined ? '[' : `{${JSON.stringify(key)}:[`),
    items: (page) => {
      if (page.length === 0) return '';
      const json = JSON.stringify(page);
      const out = (written > 0 ? ',' : '') + json.slice(1, -1);
      written += page.length;
      return out;
    },
    close: () => (key === undefined ? ']' : ']}'),
  };
}
