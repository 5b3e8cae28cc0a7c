/**
 * Which addresses a webhook may reach: public unicast addresses only, so that a client cannot make
 * tubescribe POST into its own network (loopback, private, CGNAT, link-local, cloud metadata,
 * unique-local, multicast, reserved and documentation ranges, and the IPv6 forms that embed any of
 * them). {@link webhookUrlProblem} applies the URL rules that need no DNS; the services re-check
 * the addresses a host name resolves to with {@link isPublicAddress}.
 * @module
 */
import { parseIPv4, parseIPv6 } from './network.ts';

/** The longest webhook URL accepted, in characters. */
const MAX_URL_LENGTH = 2048;

/** IPv4 blocks that are not public (IANA special-purpose registry, multicast, reserved). */
const NON_PUBLIC_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT shared space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, with the broadcast address
];

/** Non-public IPv6 blocks inside the global unicast space 2000::/3 (everything outside it is refused). */
const NON_PUBLIC_V6: readonly (readonly [string, number])[] = [
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

function v4Number(octets: readonly number[]): number {
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

const V4_BLOCKS = NON_PUBLIC_V4.map(
  ([base, bits]) => [v4Number(parseIPv4(base)!) >>> (32 - bits), bits] as const,
);
const V6_BLOCKS = NON_PUBLIC_V6.map(([base, bits]) => [parseIPv6(base)!, bits] as const);

function isPublicV4(octets: readonly number[]): boolean {
  const n = v4Number(octets);
  return !V4_BLOCKS.some(([prefix, bits]) => n >>> (32 - bits) === prefix);
}

function inV6Block(groups: readonly number[], base: readonly number[], bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((groups[i]! & mask) !== (base[i]! & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address stands for (IPv4-mapped, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedV4(groups: readonly number[]): number[] | undefined {
  const octets = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return octets(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return octets(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return octets(groups[1]!, groups[2]!);
  return undefined;
}

/**
 * True when `ip` (IPv4 dotted quad, or IPv6 text, optionally in `[` `]`, a zone id ignored) is a
 * public unicast address a webhook may reach. False for anything else, including text that is not
 * an address. IPv6 is public only inside 2000::/3 outside its special-purpose blocks; addresses
 * that embed an IPv4 address (`::ffff:127.0.0.1`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
 * judged by that IPv4 address. So loopback, private, CGNAT, link-local (and 169.254.169.254),
 * fe80::/10, fc00::/7 (and fd00:ec2::254), multicast and reserved addresses are all refused.
 */
export function isPublicAddress(ip: string): boolean {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return isPublicV4(v4);
  const v6 = parseIPv6(text);
  if (v6 === undefined) return false;
  const inner = embeddedV4(v6);
  if (inner !== undefined) return isPublicV4(inner);
  if ((v6[0]! & 0xe000) !== 0x2000) return false;
  return !V6_BLOCKS.some(([base, bits]) => inV6Block(v6, base, bits));
}

/** True when `hostname` (as `URL` gives it) is an IP literal: a dotted quad or `[…]` IPv6. */
export function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || parseIPv4(hostname) !== undefined;
}

/** Names that always mean this machine or its local network (RFC 6761, 6762, 8375; `.internal`). */
function isLocalName(host: string): boolean {
  return (
    host === 'localhost' ||
    ['.localhost', '.local', '.internal', '.home.arpa'].some((tld) => host.endsWith(tld))
  );
}

/**
 * Why `url` cannot be a webhook target, checked without DNS, or undefined when it may be. Refused:
 * more than 2048 characters; not an absolute URL; a scheme other than `https:` (`http:` too when
 * `allowPrivate`); a user name or password in the URL. Unless `allowPrivate`: `localhost`,
 * `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`, single-label names (`intranet`), and IP
 * literals that are not {@link isPublicAddress} (the `URL` parser has already turned forms like
 * `2130706433` or `0x7f.1` into `127.0.0.1`). A host name that passes still has to be resolved and
 * its addresses checked; that is the caller's part.
 */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (parsed.href.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`;
  const schemes = allowPrivate ? ['https', 'http'] : ['https'];
  if (!schemes.includes(parsed.protocol.slice(0, -1))) return `must use ${schemes.join(' or ')}`;
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain a user name or password';
  if (allowPrivate) return undefined;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (isIpLiteral(host))
    return isPublicAddress(host) ? undefined : `points to a non-public address (${host})`;
  if (isLocalName(host)) return `names a local host (${host})`;
  if (!host.includes('.')) return `must name a fully qualified host, not ${host || 'an empty one'}`;
  return undefined;
}
