/**
 * Client networks: the throttle key of a client address. One person usually controls a whole
 * IPv4 /24 or IPv6 /56 (an ISP hands out a /56 per customer), so sign-ups are throttled per
 * network, not per address.
 * @module
 */

/** Prefix lengths of {@link clientNetwork}. */
export interface NetworkPrefixes {
  /** 0–32. */
  ipv4: number;
  /** 0–128. */
  ipv6: number;
}

/** The defaults of {@link NetworkPrefixes}: IPv4 /24, IPv6 /56. */
const NETWORK_PREFIXES: NetworkPrefixes = { ipv4: 24, ipv6: 56 };

/** The one key shared by every address {@link clientNetwork} cannot parse. */
export const UNKNOWN_NETWORK = 'unknown' as const;

const OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/**
 * Parses a dotted-quad IPv4 address into its four octets. Strict: exactly four decimal parts
 * 0–255 without leading zeros (`010.0.0.1` is ambiguous: octal to some parsers), nothing else.
 */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const part of parts) {
    if (!OCTET.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    octets.push(n);
  }
  return octets;
}

function groupsOf(part: string, allowIPv4Tail: boolean): number[] | undefined {
  if (part === '') return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (allowIPv4Tail && i === pieces.length - 1 && piece.includes('.')) {
      const v4 = parseIPv4(piece);
      if (v4 === undefined) return undefined;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (GROUP.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

/**
 * Parses an IPv6 address (RFC 4291 §2.2) into its eight 16-bit groups: case-insensitive, one
 * `::` for one or more zero groups, an embedded dotted-quad IPv4 tail, and a zone id (`%eth0`,
 * dropped). Returns `undefined` for anything else.
 */
export function parseIPv6(text: string): number[] | undefined {
  let address = text.toLowerCase();
  const percent = address.indexOf('%');
  if (percent >= 0) {
    if (percent === address.length - 1) return undefined;
    address = address.slice(0, percent);
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  if (halves.length === 1) {
    const groups = groupsOf(address, true);
    return groups !== undefined && groups.length === 8 ? groups : undefined;
  }
  const head = groupsOf(halves[0]!, false);
  const tail = groupsOf(halves[1]!, true);
  if (head === undefined || tail === undefined || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** True when the groups are an IPv4-mapped address (`::ffff:0:0/96`). */
function isMapped(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

/**
 * Formats eight 16-bit groups in the RFC 5952 canonical form: lower-case hex without leading
 * zeros, the longest run of two or more zero groups (the first on a tie) written `::`, and an
 * IPv4-mapped address written `::ffff:a.b.c.d`.
 */
export function formatIPv6(groups: readonly number[]): string {
  if (isMapped(groups)) {
    const [g6 = 0, g7 = 0] = groups.slice(6);
    return `::ffff:${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Keeps the first `bits` bits of `values`, each `width` bits wide. */
function mask(values: readonly number[], width: number, bits: number): number[] {
  return values.map((value, i) => {
    const keep = Math.max(0, Math.min(width, bits - i * width));
    return keep === 0 ? 0 : value & ~((1 << (width - keep)) - 1) & ((1 << width) - 1);
  });
}

function checkPrefix(bits: number, max: number): void {
  if (!Number.isInteger(bits) || bits < 0 || bits > max) {
    throw new RangeError(`A network prefix must be an integer from 0 to ${max}, got ${bits}.`);
  }
}

/**
 * The throttle key of a client address: its network in CIDR notation.
 * - IPv4 → its /24 (`203.0.113.7` → `203.0.113.0/24`).
 * - IPv6 → its /56 in canonical compressed form (`2001:DB8::1` → `2001:db8::/56`).
 * - IPv4-mapped IPv6 (`::ffff:203.0.113.7`, `::ffff:cb00:7107`) → the IPv4 network.
 * - Anything else (empty, a host name, junk) → {@link UNKNOWN_NETWORK}, one shared key.
 * Surrounding whitespace and `[` `]` brackets are ignored; an IPv6 zone id is dropped.
 *
 * @throws RangeError when a configured prefix is out of range.
 */
export function clientNetwork(ip: string, prefixes: NetworkPrefixes = NETWORK_PREFIXES): string {
  checkPrefix(prefixes.ipv4, 32);
  checkPrefix(prefixes.ipv6, 128);
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  let v4 = parseIPv4(text);
  if (v4 === undefined) {
    const v6 = parseIPv6(text);
    if (v6 === undefined) return UNKNOWN_NETWORK;
    if (!isMapped(v6)) return `${formatIPv6(mask(v6, 16, prefixes.ipv6))}/${prefixes.ipv6}`;
    const [g6 = 0, g7 = 0] = v6.slice(6);
    v4 = [g6 >> 8, g6 & 255, g7 >> 8, g7 & 255];
  }
  return `${mask(v4, 8, prefixes.ipv4).join('.')}/${prefixes.ipv4}`;
}
