/**
 * Which addresses a webhook may connect to. Private, loopback, link-local and
 * other non-public ranges are refused unless private networks are allowed.
 * The check runs on the address the socket connects to (a `lookup` of the
 * request, and the literal IP of the URL), so a name that resolves to a public
 * address when checked and a private one when used (DNS rebinding) is refused.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

function nonPublicRanges(): BlockList {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
    ['224.0.0.0', 4], ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/** Refuses non-public addresses (unless allowed); one per delivery transport. */
export class AddressPolicy {
  private readonly blocked = nonPublicRanges();

  constructor(readonly allowPrivateNetworks: boolean) {}

  /** Why `address` may not be used, or undefined when it may. */
  refusal(address: string): string | undefined {
    if (this.allowPrivateNetworks) return undefined;
    const family = isIP(address);
    if (family === 0) return `not an IP address: ${address}`;
    // IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked as the IPv4 address it carries.
    const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
    const blocked = mapped ? this.blocked.check(mapped, 'ipv4') : this.blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
    return blocked ? `refused: ${address} is a private, loopback or link-local address (webhooks.allowPrivateNetworks is off)` : undefined;
  }

  /** A `lookup` for http.request that resolves as usual, then refuses a non-public answer at connect time. */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options }, (err, address: string | LookupAddress[], family?: number) => {
      if (err) return callback(err, address, family);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      for (const a of addresses) {
        const reason = this.refusal(a);
        if (reason) return callback(Object.assign(new Error(reason), { code: 'EWEBHOOKREFUSED' }), address, family);
      }
      callback(null, address, family);
    });
  };
}
