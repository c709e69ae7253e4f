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

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether a destination may connect to `address` (an IP address, v4 or v6), classified by
 * ipaddr.js: public unicast addresses only, and private networks when `allowPrivate`.
 * Cloud metadata, unspecified, broadcast, multicast, reserved and documentation addresses
 * are always refused. An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4) is
 * judged by the IPv4 address it carries.
 */
export function addressVerdict(address: string, allowPrivate: boolean): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return { allowed: false, reason: `${address} is not an IP address` };
  }
  const carried = carriedIpv4(parsed);
  if (carried) return addressVerdict(carried.toString(), allowPrivate);
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

/** The IPv4 address inside a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address, if it is one. */
function carriedIpv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const v6 = address as ipaddr.IPv6;
  const parts = v6.parts;
  const range = v6.range();
  if (range === 'rfc6052') return new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
  if (range === '6to4') return new ipaddr.IPv4([parts[1]! >> 8, parts[1]! & 0xff, parts[2]! >> 8, parts[2]! & 0xff]);
  return null;
}
