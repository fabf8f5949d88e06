import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the server may send a request a user configured (webhooks): http(s) to public unicast
 * addresses only. Everything ipaddr.js does not class as `unicast` is refused: loopback, private,
 * link-local (169.254.169.254, the cloud metadata address), carrier-grade NAT (100.64/10, another
 * metadata range), multicast, broadcast, unspecified, reserved and documentation ranges, IPv6
 * unique-local (fd00:ec2::254), and the IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64,
 * 6to4, Teredo). The operator's allow-list (hostnames, or CIDR ranges) opens internal receivers.
 */
export interface OutboundPolicy {
  /** Hostnames (exact, case-insensitive) allowed whatever they resolve to. */
  hosts: readonly string[];
  /** Address ranges allowed although not public. */
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const noInternalReceivers: OutboundPolicy = { hosts: [], ranges: [] };

/** WEBHOOK_ALLOW: comma-separated hostnames and CIDR ranges (e.g. `hooks.internal,10.20.0.0/16,fd12::/48`). */
export function parseOutboundAllowList(spec: string): OutboundPolicy {
  const hosts: string[] = [];
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (entry.includes('/')) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) ranges.push(ipaddr.parseCIDR(`${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`));
    else hosts.push(entry.toLowerCase());
  }
  return { hosts, ranges };
}

export class OutboundRefused extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`refused to connect to ${target}: ${reason}`);
    this.name = 'OutboundRefused';
  }
}

/** Why the address may not be reached, or undefined when it may. */
export function addressRefusal(address: string, policy: OutboundPolicy): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  // an IPv4 address inside IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (policy.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return undefined;
  const range = ip.range();
  return range === 'unicast' ? undefined : `${range} address ${ip.toString()}`;
}

const hostAllowed = (host: string, policy: OutboundPolicy): boolean => policy.hosts.includes(host.toLowerCase().replace(/\.$/, ''));

/** Checks a URL before any connection: scheme, and the address when the host is one. */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(url.origin, `scheme ${url.protocol} not allowed`);
  if (url.username || url.password) throw new OutboundRefused(url.origin, 'credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !hostAllowed(host, policy)) {
    const why = addressRefusal(host, policy);
    if (why) throw new OutboundRefused(url.host, why);
  }
  return url;
}

/**
 * Why a webhook URL may not be saved (a literal internal address, another scheme, credentials in
 * it), or undefined when it may; a name is checked when it is resolved, at each delivery.
 */
export function savedUrlRefusal(raw: string, policy: OutboundPolicy): string | undefined {
  try {
    checkOutboundUrl(raw, policy);
    return undefined;
  } catch (err) {
    if (err instanceof OutboundRefused) return `only public addresses (or the server's WEBHOOK_ALLOW list): ${err.reason}`;
    throw err;
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for net/tls.connect (undici's `connect.lookup`): resolves the name, refuses it when
 * any of its addresses may not be reached (a name that resolves to one public and one private
 * address is refused whole), and hands the connection the checked address, so it cannot be
 * resolved again to another (DNS rebinding).
 */
export function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      if (!hostAllowed(hostname, policy)) {
        for (const a of list) {
          const why = addressRefusal(a.address, policy);
          if (why) return callback(Object.assign(new OutboundRefused(hostname, why), { code: 'EOUTBOUNDREFUSED' }), []);
        }
      }
      if (!list.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
