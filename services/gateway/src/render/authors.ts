import type { DeviceView } from '@formcast/contracts';
import { buildXml, xmlArray, xmlNullableText } from '@formcast/xml-writing';

/** A possible author of submissions, as the real product's `dispatch_authors` shows one. */
export interface AuthorView {
  identifier: string;
  type: 'Device';
  name: string;
  email: null;
}

/** An approved device as an author: named by its owner, or by its identifier when it has none. */
export function toAuthorView(device: DeviceView): AuthorView {
  return { identifier: device.identifier, type: 'Device', name: device.owner || device.identifier, email: null };
}

/** `<authors type="array"><author><identifier/><type/><name/><email nil="true"/></author></authors>`. */
export function renderAuthorsXml(authors: AuthorView[]): string {
  const elements = authors.map((author) => ({ identifier: author.identifier, type: author.type, name: author.name, email: xmlNullableText(author.email) }));
  return buildXml('authors', xmlArray('author', elements));
}
