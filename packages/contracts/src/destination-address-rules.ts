/**
 * What a destination's HTTP address and headers must be to be sendable at all: checked when
 * the destination is saved, so none is kept that could only fail on every attempt. Kept apart
 * from the payload schemas so other transports (and their formats) can call the same rules.
 */

/** An http or https URL (the scheme in any case: `HTTPS://` is `https:`), with a host and no credentials. */
export function isHttpUri(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Whether `uri` is sent over TLS: the scheme as WHATWG URL parsing reads it, in any case. */
export function isHttpsUri(uri: string): boolean {
  try {
    return new URL(uri).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Header names as HTTP allows them (RFC 9110 tokens). */
export const headerNamePattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/**
 * The first character of a header value Node's http client refuses to send (it throws
 * ERR_INVALID_CHAR on anything but TAB, visible ASCII, space and Latin-1 0x80-0xFF), or null.
 */
export function unsendableHeaderCharacter(value: string): string | null {
  const match = /[^\t\x20-\x7e\x80-\xff]/u.exec(value);
  if (!match) return null;
  const codePoint = match[0].codePointAt(0)!;
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Hop-by-hop headers (RFC 9110 7.6.1, and the Proxy-* family): they describe one connection,
 * not the delivery, and Node either refuses them or changes how it frames the request.
 */
export const hopByHopHeaders = ['te', 'trailer', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade'] as const;

/** Why a destination may not set the header `name`, or null (only the hop-by-hop rule: reserved names are checked beside it). */
export function hopByHopRefusal(name: string): string | null {
  const lower = name.toLowerCase();
  if ((hopByHopHeaders as readonly string[]).includes(lower) || lower.startsWith('proxy-')) {
    return `a hop-by-hop header; a destination may not set ${hopByHopHeaders.join(', ')} or Proxy-*`;
  }
  return null;
}
