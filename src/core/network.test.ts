import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientNetwork, formatIPv6, parseIPv4, parseIPv6, UNKNOWN_NETWORK } from './network.ts';

describe('clientNetwork', () => {
  const rows: [string, string][] = [
    // IPv4
    ['203.0.113.7', '203.0.113.0/24'],
    ['203.0.113.255', '203.0.113.0/24'],
    ['0.0.0.0', '0.0.0.0/24'],
    ['255.255.255.255', '255.255.255.0/24'],
    ['  10.1.2.3 \n', '10.1.2.0/24'],
    // IPv4-mapped IPv6
    ['::ffff:203.0.113.7', '203.0.113.0/24'],
    ['::FFFF:203.0.113.7', '203.0.113.0/24'],
    ['::ffff:cb00:7107', '203.0.113.0/24'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.0/24'],
    ['0000:0000:0000:0000:0000:ffff:203.0.113.9', '203.0.113.0/24'],
    ['[::ffff:203.0.113.7]', '203.0.113.0/24'],
    // IPv6
    ['2001:db8:1234:5678:9abc:def0:1234:5678', '2001:db8:1234:5600::/56'],
    ['2001:DB8:1234:56FF::1', '2001:db8:1234:5600::/56'],
    ['2001:db8::1', '2001:db8::/56'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::/56'],
    ['::1', '::/56'],
    ['::', '::/56'],
    ['fe80::1%eth0', 'fe80::/56'],
    ['FE80::abcd%25en0', 'fe80::/56'],
    ['[2001:db8:aa:bbcc::1]', '2001:db8:aa:bb00::/56'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8:ffff:ff00::/56'],
    ['1:2:3:4:5:6:7::', '1:2:3::/56'],
    ['::2:3:4:5:6:7:8', '0:2:3::/56'],
    ['64:ff9b::192.0.2.33', '64:ff9b::/56'],
    ['::192.0.2.33', '::/56'],
    ['::ffff:0:1.2.3.4', '::/56'],
    // junk
    ['', UNKNOWN_NETWORK],
    ['unknown', UNKNOWN_NETWORK],
    ['example.com', UNKNOWN_NETWORK],
    ['256.0.0.1', UNKNOWN_NETWORK],
    ['1.2.3', UNKNOWN_NETWORK],
    ['1.2.3.4.5', UNKNOWN_NETWORK],
    ['01.2.3.4', UNKNOWN_NETWORK],
    ['1.2.3.4:8080', UNKNOWN_NETWORK],
    ['1.2.3.-4', UNKNOWN_NETWORK],
    ['1.2.3.4%eth0', UNKNOWN_NETWORK],
    ['1::2::3', UNKNOWN_NETWORK],
    [':::', UNKNOWN_NETWORK],
    ['1:2:3:4:5:6:7:8:9', UNKNOWN_NETWORK],
    ['1:2:3:4:5:6:7', UNKNOWN_NETWORK],
    ['1:2:3:4:5:6:7::8', UNKNOWN_NETWORK],
    ['12345::', UNKNOWN_NETWORK],
    ['g::1', UNKNOWN_NETWORK],
    [':1:2:3:4:5:6:7', UNKNOWN_NETWORK],
    ['1:2:3:4:5:6:7:', UNKNOWN_NETWORK],
    ['1.2.3.4::', UNKNOWN_NETWORK],
    ['::1.2.3', UNKNOWN_NETWORK],
    ['::ffff:1.2.3.256', UNKNOWN_NETWORK],
    ['fe80::1%', UNKNOWN_NETWORK],
    ['[::1', UNKNOWN_NETWORK],
  ];
  it.each(rows)('%j → %s', (ip, expected) => {
    expect(clientNetwork(ip)).toBe(expected);
  });

  it('takes configured prefixes', () => {
    expect(clientNetwork('203.0.113.77', { ipv4: 16, ipv6: 48 })).toBe('203.0.0.0/16');
    expect(clientNetwork('203.0.113.77', { ipv4: 32, ipv6: 48 })).toBe('203.0.113.77/32');
    expect(clientNetwork('203.0.113.77', { ipv4: 0, ipv6: 48 })).toBe('0.0.0.0/0');
    expect(clientNetwork('203.0.113.77', { ipv4: 25, ipv6: 48 })).toBe('203.0.113.0/25');
    expect(clientNetwork('203.0.113.177', { ipv4: 25, ipv6: 48 })).toBe('203.0.113.128/25');
    expect(clientNetwork('2001:db8:1:2::1', { ipv4: 24, ipv6: 48 })).toBe('2001:db8:1::/48');
    expect(clientNetwork('2001:db8:1:2::1', { ipv4: 24, ipv6: 128 })).toBe('2001:db8:1:2::1/128');
    expect(() => clientNetwork('1.2.3.4', { ipv4: 33, ipv6: 56 })).toThrow(RangeError);
    expect(() => clientNetwork('1.2.3.4', { ipv4: 24, ipv6: 56.5 })).toThrow(RangeError);
  });
});

describe('formatIPv6 (RFC 5952)', () => {
  it.each([
    [[0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], '2001:db8::1'],
    [[0x2001, 0xdb8, 0, 1, 0, 0, 0, 1], '2001:db8:0:1::1'],
    [[0x2001, 0xdb8, 0, 0, 1, 0, 0, 1], '2001:db8::1:0:0:1'],
    [[0x2001, 0xdb8, 0, 1, 1, 1, 1, 1], '2001:db8:0:1:1:1:1:1'],
    [[1, 0, 0, 0, 0, 0, 0, 0], '1::'],
    [[0, 0, 0, 0, 0, 0, 0, 0], '::'],
    [[0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201], '::ffff:192.0.2.1'],
    [
      [0xabcd, 0xef01, 0x2345, 0x6789, 0xabcd, 0xef01, 0x2345, 0x6789],
      'abcd:ef01:2345:6789:abcd:ef01:2345:6789',
    ],
  ] as [number[], string][])('%j → %s', (groups, expected) => {
    expect(formatIPv6(groups)).toBe(expected);
  });
});

const octet = fc.integer({ min: 0, max: 255 });
const group = fc.integer({ min: 0, max: 0xffff });
const groups = fc.array(group, { minLength: 8, maxLength: 8 });
const mapped = (g: readonly number[]): boolean => g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;

/** The 128-bit value of eight groups. */
const toBig = (g: readonly number[]): bigint => g.reduce((acc, x) => (acc << 16n) | BigInt(x), 0n);
const fromBig = (n: bigint): number[] =>
  Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(16 * (7 - i))) & 0xffffn));

describe('laws', () => {
  it('every host of an IPv4 /24 has the same key, in both IPv4 and IPv4-mapped forms', () => {
    fc.assert(
      fc.property(octet, octet, octet, octet, octet, (a, b, c, h1, h2) => {
        const key = clientNetwork(`${a}.${b}.${c}.${h1}`);
        expect(key).toBe(`${a}.${b}.${c}.0/24`);
        expect(clientNetwork(`${a}.${b}.${c}.${h2}`)).toBe(key);
        expect(clientNetwork(`::ffff:${a}.${b}.${c}.${h2}`)).toBe(key);
        expect(clientNetwork(`::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | h2).toString(16)}`)).toBe(
          key,
        );
      }),
    );
  });

  it('an IPv6 /56 key equals masking the 128-bit value', () => {
    fc.assert(
      fc.property(groups, (g) => {
        fc.pre(!mapped(g));
        const expected = fromBig(toBig(g) & ~((1n << 72n) - 1n));
        const full = g.map((x) => x.toString(16).padStart(4, '0')).join(':');
        expect(clientNetwork(full)).toBe(`${formatIPv6(expected)}/56`);
        expect(clientNetwork(formatIPv6(g).toUpperCase())).toBe(`${formatIPv6(expected)}/56`);
      }),
    );
  });

  it('parse ∘ format is the identity on groups, and format is canonical', () => {
    fc.assert(
      fc.property(groups, (g) => {
        const text = formatIPv6(g);
        expect(parseIPv6(text)).toEqual(g);
        expect(formatIPv6(parseIPv6(text)!)).toBe(text);
        const longhand = g.map((x) => x.toString(16)).join(':');
        expect(formatIPv6(parseIPv6(longhand)!)).toBe(text);
      }),
    );
  });

  it('parses IPv4 dotted quads back to their octets', () => {
    fc.assert(
      fc.property(fc.array(octet, { minLength: 4, maxLength: 4 }), (o) => {
        expect(parseIPv4(o.join('.'))).toEqual(o);
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(typeof clientNetwork(s)).toBe('string');
      }),
    );
  });
});
