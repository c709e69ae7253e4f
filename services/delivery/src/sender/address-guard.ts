import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressVerdict } from '../domain/address-policy';

/** Resolves a host name to every address it has (`family` 4 or 6 narrows it; 0: both). */
export type Resolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** A connection refused by the address policy (see domain/address-policy.ts). */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_DESTINATION_ADDRESS_REFUSED';
}

/** The refusal for the first address of `hostname` the policy refuses, or null when it allows every one. */
function refusal(hostname: string, addresses: string[], allowPrivate: boolean): string | null {
  for (const address of addresses) {
    const verdict = addressVerdict(address, allowPrivate);
    if (!verdict.allowed) return address === hostname ? verdict.reason : `${hostname} resolves to ${verdict.reason}`;
  }
  return null;
}

/** A URL's host as an address or a name (without the brackets of an IPv6 literal). */
function hostOf(uri: string): string {
  const { hostname } = new URL(uri);
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/**
 * Why a destination may not send to `uri`, or null: its host, or every address its name
 * resolves to now, must be allowed. Checked when a destination is created or changed; the
 * connection checks again (`guardedLookup`), since a name may resolve otherwise later.
 */
export async function uriRefusal(uri: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<string | null> {
  const host = hostOf(uri);
  if (isIP(host)) return refusal(host, [host], allowPrivate);
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host, 0);
  } catch (error) {
    return `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (addresses.length === 0) return `${host} does not resolve`;
  return refusal(host, addresses.map((entry) => entry.address), allowPrivate);
}

/** As `uriRefusal` for a host that is an IP address (connections skip name lookup for those); null for names. */
export function literalRefusal(uri: string, allowPrivate: boolean): string | null {
  const host = hostOf(uri);
  return isIP(host) ? refusal(host, [host], allowPrivate) : null;
}

/**
 * A `lookup` for the connection itself (the HTTP request's `lookup`, handed to net and tls):
 * the name is resolved as usual, and the connection fails when any of its addresses is
 * refused, so a name that resolved to a public address when the destination was saved and
 * to a private one now (DNS rebinding) reaches nothing.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options.family === 4 || options.family === 6 ? options.family : 0).then(
      (addresses) => {
        const refused = addresses.length === 0 ? `${hostname} does not resolve` : refusal(hostname, addresses.map((entry) => entry.address), allowPrivate);
        if (refused) {
          callback(new AddressRefusedError(refused), '', 0);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0]!.address, addresses[0]!.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
