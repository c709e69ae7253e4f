import ipaddr from 'ipaddr.js';

/** The setting that lets destinations reach private networks; refusals name it. */
export const allowPrivateNetworksSetting = 'DELIVERY_ALLOW_PRIVATE_NETWORKS';

/** Cloud instance metadata services: never a destination, whatever the setting. */
const metadataAddresses = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** Ranges (ipaddr.js names) of private networks: allowed only with DELIVERY_ALLOW_PRIVATE_NETWORKS=true. */
const privateRanges: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  deprecatedSiteLocal: 'site-local',
};

/** ipaddr.js ranges whose addresses stand for the IPv4 address they carry. */
const translationRanges = new Set(['rfc6052', 'rfc6145', '6to4', 'teredo']);

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether a destination may connect to `address` (an IP address, v4 or v6), classified by
 * ipaddr.js: public unicast addresses only, and private networks when `allowPrivate`.
 * Cloud metadata, unspecified, broadcast, multicast, reserved and documentation addresses
 * are always refused. An IPv6 address that carries an IPv4 one (mapped, compatible,
 * translated, NAT64, 6to4, Teredo, ISATAP: see carriedIpv4) is judged by the IPv4 address it
 * carries, also when it is what a name resolves to at connect time (sender/address-guard.ts).
 */
export function addressVerdict(address: string, allowPrivate: boolean): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return { allowed: false, reason: `${address} is not an IP address` };
  }
  const carried = carriedIpv4(parsed);
  for (const ipv4 of carried) {
    const verdict = addressVerdict(ipv4.toString(), allowPrivate);
    if (!verdict.allowed) return verdict;
  }
  // Translation ranges reach what they carry: allowed when that is. Others (ISATAP under
  // any prefix) are judged by their own range too.
  if (carried.length > 0 && translationRanges.has(parsed.range())) return { allowed: true };
  if (isLocalUseNat64(parsed)) {
    return { allowed: false, reason: `${address} is a local-use NAT64 address, which destinations may never reach` };
  }
  // toString() is the canonical form (IPv6 compressed, lower case), as the set spells them.
  if (metadataAddresses.has(parsed.toString())) {
    return { allowed: false, reason: `${address} is a cloud metadata address, which destinations may never reach` };
  }
  const range = parsed.range();
  if (range === 'unicast') return { allowed: true };
  const privateKind = privateRanges[range];
  if (privateKind === undefined) {
    return { allowed: false, reason: `${address} is a ${range} address, which destinations may never reach` };
  }
  if (allowPrivate) return { allowed: true };
  return { allowed: false, reason: `${address} is a ${privateKind} address; set ${allowPrivateNetworksSetting}=true to allow private networks` };
}

/** 0xffff, the Teredo client's address is stored inverted. */
const word = (value: number) => value & 0xffff;
const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * Every IPv4 address an IPv6 one carries, by the form it has (ipaddr.process has already
 * made IPv4-mapped ::ffff:0:0/96 an IPv4 address):
 * - IPv4-compatible ::/96 (ipaddr.js calls it unicast), but for :: and ::1 themselves;
 * - IPv4-translated ::ffff:0:0:0/96 (RFC 6145), NAT64 64:ff9b::/96 (RFC 6052);
 * - 6to4 2002::/16 (the IPv4 address in bits 16 to 48);
 * - Teredo 2001::/32 (the server's address, and the client's, stored inverted);
 * - ISATAP interface identifiers (::0:5efe:a.b.c.d, ::200:5efe:a.b.c.d under any prefix).
 * A destination is allowed only when each of them would be.
 */
export function carriedIpv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4[] {
  if (address.kind() !== 'ipv6') return [];
  const parts = (address as ipaddr.IPv6).parts.map(word);
  const [p0, p1, p2, p3, p4, p5, p6, p7] = parts as [number, number, number, number, number, number, number, number];
  const carried: ipaddr.IPv4[] = [];
  const firstSixZero = p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0;
  if (firstSixZero && (p6 !== 0 || p7 > 1)) carried.push(ipv4Of(p6, p7));
  if (p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0 && p4 === 0xffff && p5 === 0) carried.push(ipv4Of(p6, p7));
  if (p0 === 0x64 && p1 === 0xff9b && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0) carried.push(ipv4Of(p6, p7));
  if (p0 === 0x2002) carried.push(ipv4Of(p1, p2));
  if (p0 === 0x2001 && p1 === 0) carried.push(ipv4Of(p2, p3), ipv4Of(word(~p6), word(~p7)));
  if ((p4 & 0xfdff) === 0 && p5 === 0x5efe) carried.push(ipv4Of(p6, p7));
  return carried;
}

/** 64:ff9b:1::/48 (RFC 8215): a network's own translator, whose IPv4 address may sit anywhere in it. */
function isLocalUseNat64(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() !== 'ipv6') return false;
  const parts = (address as ipaddr.IPv6).parts;
  return parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 1;
}
