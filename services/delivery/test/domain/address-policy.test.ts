import { addressVerdict } from '../../src/domain/address-policy';

const refusal = (address: string, allowPrivate = false) => {
  const verdict = addressVerdict(address, allowPrivate);
  return verdict.allowed ? 'allowed' : verdict.reason;
};

describe('which addresses a destination may reach', () => {
  it('allows public unicast addresses', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111']) expect(refusal(address)).toBe('allowed');
  });

  it('refuses private networks, naming the setting that allows them', () => {
    expect(refusal('127.0.0.1')).toBe('127.0.0.1 is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks');
    expect(refusal('10.0.0.8')).toMatch(/a private address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true/);
    expect(refusal('172.20.1.1')).toMatch(/a private address/);
    expect(refusal('192.168.1.20')).toMatch(/a private address/);
    expect(refusal('169.254.10.1')).toMatch(/a link-local address/);
    expect(refusal('100.64.3.4')).toMatch(/a carrier-grade NAT address/);
    expect(refusal('::1')).toMatch(/a loopback address/);
    expect(refusal('fe80::1')).toMatch(/a link-local address/);
    expect(refusal('fd12:3456::1')).toMatch(/a unique-local address/);
  });

  it('judges an IPv6 address carrying an IPv4 one by that IPv4 address', () => {
    expect(refusal('::ffff:127.0.0.1')).toMatch(/127.0.0.1 is a loopback address/);
    expect(refusal('64:ff9b::a00:1')).toMatch(/10.0.0.1 is a private address/);
    expect(refusal('2002:c0a8:0101::1')).toMatch(/192.168.1.1 is a private address/);
    expect(refusal('64:ff9b::808:808')).toBe('allowed');
  });

  it('judges IPv4-compatible (::/96) and every other embedded-IPv4 form by the IPv4 address it carries', () => {
    expect(refusal('::a9fe:a9fe', true)).toMatch(/169.254.169.254 is a cloud metadata address/);
    expect(refusal('::169.254.169.254', true)).toMatch(/cloud metadata/);
    expect(refusal('::127.0.0.1')).toMatch(/127.0.0.1 is a loopback address/);
    expect(refusal('::10.1.2.3')).toMatch(/10.1.2.3 is a private address/);
    expect(refusal('::ffff:0:7f00:1')).toMatch(/127.0.0.1 is a loopback address/); // IPv4-translated
    expect(refusal('64:ff9b::a9fe:a9fe', true)).toMatch(/cloud metadata/);
    expect(refusal('2002:a9fe:a9fe::1', true)).toMatch(/cloud metadata/); // 6to4
    // Teredo: server 65.54.227.120, client stored inverted (~0x3fff, ~0xfdd2 = 192.0.2.45: reserved)
    expect(refusal('2001:0:4136:e378:8000:63bf:3fff:fdd2', true)).toMatch(/192.0.2.45 is a reserved address/);
    // Teredo whose client is 127.0.0.1 (inverted: 80ff:fffe)
    expect(refusal('2001:0:4136:e378::80ff:fffe')).toMatch(/127.0.0.1 is a loopback address/);
    expect(refusal('2001:0:4136:e378::f7f7:f7f7')).toBe('allowed'); // client 8.8.8.8
    expect(refusal('2606:4700::5efe:a9fe:a9fe', true)).toMatch(/cloud metadata/); // ISATAP
    expect(refusal('2606:4700::200:5efe:7f00:1')).toMatch(/127.0.0.1 is a loopback address/);
    expect(refusal('64:ff9b:1::808:808')).toMatch(/local-use NAT64/);
    expect(refusal('::808:808')).toBe('allowed');
    expect(refusal('2002:808:808::1')).toBe('allowed');
    // :: and ::1 are themselves, not 0.0.0.0 and 0.0.0.1
    expect(refusal('::1', true)).toBe('allowed');
    expect(refusal('::', true)).toMatch(/unspecified/);
  });

  it('allows private networks with the setting, but never metadata, unspecified, multicast or reserved addresses', () => {
    for (const address of ['127.0.0.1', '10.0.0.8', '::1', 'fd12::1', '100.64.0.1']) expect(refusal(address, true)).toBe('allowed');
    expect(refusal('169.254.169.254', true)).toBe('169.254.169.254 is a cloud metadata address, which destinations may never reach');
    expect(refusal('fd00:ec2::254', true)).toMatch(/cloud metadata/);
    expect(refusal('::ffff:169.254.169.254', true)).toMatch(/cloud metadata/);
    expect(refusal('0.0.0.0', true)).toBe('0.0.0.0 is a unspecified address, which destinations may never reach');
    expect(refusal('::', true)).toMatch(/unspecified/);
    expect(refusal('224.0.0.1', true)).toMatch(/multicast/);
    expect(refusal('255.255.255.255', true)).toMatch(/broadcast/);
    expect(refusal('192.0.2.1', true)).toMatch(/reserved/);
  });

  it('refuses what is not an address', () => {
    expect(refusal('example.com')).toBe('example.com is not an IP address');
  });
});
