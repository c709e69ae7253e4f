import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * What reads one XML part. Elements come by local name (prefixes dropped), as the path
 * from the root to the element, the element last; text and CDATA come with the path of
 * the element holding them.
 */
export interface XmlPartVisitor {
  open(path: readonly string[], attributes: Readonly<Record<string, string>>): void;
  close(path: readonly string[]): void;
  text(path: readonly string[], text: string): void;
  /** True once the visitor has what it needs: the rest of the part is then neither inflated nor parsed. */
  readonly done: boolean;
}

/** Deeper than any real part (a cell's rich text run is 7 levels down). */
const maxDepth = 64;
/**
 * The most characters the parser may take in without reporting anything (one text,
 * comment, tag with its attributes): saxes holds such a token whole until it ends.
 */
const maxTokenChars = 1024 * 1024;

/** `x:sheet` → `sheet`. */
export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/**
 * Parses an XML part (UTF-8, as Office writes them) from its chunks with saxes, handing
 * what it meets to the visitor, until the visitor is done or the part ends, then stops
 * reading the chunks. Entities are decoded as XML defines them; a DOCTYPE, malformed XML,
 * nesting past `maxDepth` or a token past `maxTokenChars` throws, as does a part that ends
 * before its root closes.
 */
export async function parseXmlPart(chunks: AsyncIterable<Buffer>, visitor: XmlPartVisitor): Promise<void> {
  const parser = new SaxesParser();
  const path: string[] = [];
  let sinceLastEvent = 0;
  /** Whether the parser went on to another event after the visitor was done. */
  let pastTheEnd = false;
  const live = () => {
    sinceLastEvent = 0;
    if (visitor.done) pastTheEnd = true;
    return !visitor.done;
  };
  // Only the handlers needed: with more than a few, V8 turns the parser into a slow
  // dictionary object (measured: 5× slower). Processing instructions, which Office
  // never writes, are left to the token bound.
  parser.on('doctype', () => {
    if (live()) throw new Error('the part declares a DOCTYPE');
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (!live()) return;
    if (path.length === maxDepth) throw new Error(`the part nests elements deeper than ${maxDepth}`);
    path.push(localName(tag.name));
    visitor.open(path, tag.attributes);
  });
  parser.on('closetag', () => {
    // saxes reports a self-closing tag as opened, then closed
    if (!live()) return;
    visitor.close(path);
    path.pop();
  });
  const onText = (text: string) => {
    if (live()) visitor.text(path, text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('comment', live);

  const decoder = new StringDecoder('utf8');
  const feed = (text: string) => {
    // Chunks are small (zlib's 16 KiB, or yauzl's 64 KiB slices for a stored part).
    sinceLastEvent += text.length;
    try {
      parser.write(text);
    } catch (error) {
      // Once the visitor is done, the rest of the chunk at hand is parsed for no one
      // (saxes cannot stop mid-chunk): what follows the part read is not judged. But an
      // error before any further event is the end itself failing: saxes reports a
      // mismatched close tag after closing the open elements, e.g. `<row>…</sheetData>`.
      if (pastTheEnd) return;
      throw error;
    }
    if (sinceLastEvent > maxTokenChars) throw new Error(`the part has a token longer than ${maxTokenChars} characters`);
  };
  for await (const chunk of chunks) {
    feed(decoder.write(chunk));
    if (visitor.done) return;
  }
  feed(decoder.end());
  if (visitor.done) return;
  parser.close();
}
