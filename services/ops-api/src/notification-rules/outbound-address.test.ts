import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  checkOutboundUrl,
  guardedLookup,
  noInternalReceivers,
  parseOutboundAllowList,
  type OutboundPolicy,
} from './outbound-address';

const lookup = (host: string, policy: OutboundPolicy, all = false) =>
  new Promise<{ err: Error | null; address: unknown }>((resolve) =>
    guardedLookup(policy)(host, { all }, (err, address) => resolve({ err, address })),
  );

describe('outbound addresses (webhooks)', () => {
  it('allows public unicast IPv4 and IPv6 only', () => {
    for (const ok of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(addressRefusal(ok, noInternalReceivers), ok).toBeUndefined();
    const refused: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['::1', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['192.168.1.1', /private/],
      ['169.254.169.254', /linkLocal/],
      ['fe80::1', /linkLocal/],
      ['100.100.100.200', /carrierGradeNat/],
      ['100.64.0.1', /carrierGradeNat/],
      ['224.0.0.1', /multicast/],
      ['ff02::1', /multicast/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['255.255.255.255', /broadcast/],
      ['fd00:ec2::254', /uniqueLocal/],
      ['198.18.0.1', /reserved/],
      ['2001:db8::1', /reserved/],
      // IPv6 forms of IPv4 addresses: judged as the IPv4 address, or refused as translation ranges
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:169.254.169.254', /linkLocal/],
      ['64:ff9b::a00:1', /rfc6052/],
      ['2002:a00:1::', /6to4/],
      ['2001::1', /teredo/],
    ];
    for (const [address, why] of refused) expect(addressRefusal(address, noInternalReceivers), address).toMatch(why);
  });

  it('opens internal receivers by CIDR range or hostname from the allow-list', () => {
    const policy = parseOutboundAllowList(' hooks.internal , 10.20.0.0/16,fd12::/48, 192.168.5.5 ');
    expect(policy.hosts).toEqual(['hooks.internal']);
    expect(addressRefusal('10.20.3.4', policy)).toBeUndefined();
    expect(addressRefusal('::ffff:10.20.3.4', policy)).toBeUndefined();
    expect(addressRefusal('fd12::9', policy)).toBeUndefined();
    expect(addressRefusal('192.168.5.5', policy)).toBeUndefined();
    expect(addressRefusal('10.21.0.1', policy)).toMatch(/private/);
    expect(addressRefusal('192.168.5.6', policy)).toMatch(/private/);
    expect(() => parseOutboundAllowList('10.0.0.0/99')).toThrow();
  });

  it('checks the URL: http(s) only, no credentials, literal addresses in any spelling', () => {
    expect(checkOutboundUrl('https://hooks.example.com/x', noInternalReceivers).host).toBe('hooks.example.com');
    for (const bad of [
      'ftp://8.8.8.8/',
      'file:///etc/passwd',
      'gopher://8.8.8.8/',
      'http://user:pw@8.8.8.8/',
      'http://127.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://[::1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'not a url',
    ]) {
      expect(() => checkOutboundUrl(bad, noInternalReceivers), bad).toThrow(/refused to connect/);
    }
    expect(checkOutboundUrl('http://10.20.0.9:8080/h', parseOutboundAllowList('10.20.0.0/16')).port).toBe('8080');
  });

  it('resolves names, refuses a name with any internal address, and hands over the checked address (no second resolution)', async () => {
    const refused = await lookup('localhost', noInternalReceivers);
    expect(refused.err?.message).toMatch(/refused to connect to localhost: loopback/);
    const allowedByName = await lookup('localhost', parseOutboundAllowList('localhost'));
    expect(allowedByName.err).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(allowedByName.address);
    const all = await lookup('localhost', parseOutboundAllowList('127.0.0.0/8,::1'), true);
    expect(all.err).toBeNull();
    expect((all.address as { address: string }[]).every((a) => ['127.0.0.1', '::1'].includes(a.address))).toBe(true);
  });
});
