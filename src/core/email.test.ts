import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import type { Lookup, MxRecord } from '../ports/dns.ts';
import {
  accountKey,
  deliverability,
  grantKey,
  isDisposableDomain,
  isMajorProvider,
  parentDomains,
  parseEmail,
} from './email.ts';

describe('parseEmail', () => {
  const valid: [string, string, string, string][] = [
    ['user@example.com', 'user@example.com', 'user', 'example.com'],
    ['  User.Name@Example.COM \n', 'User.Name@example.com', 'User.Name', 'example.com'],
    ['a+tag@sub.example.co.uk', 'a+tag@sub.example.co.uk', 'a+tag', 'sub.example.co.uk'],
    [
      "o'brien_{x}|~!#$%&*=?^`/-@ex-ample.org",
      "o'brien_{x}|~!#$%&*=?^`/-@ex-ample.org",
      "o'brien_{x}|~!#$%&*=?^`/-",
      'ex-ample.org',
    ],
    ['x@xn--80ak6aa92e.com', 'x@xn--80ak6aa92e.com', 'x', 'xn--80ak6aa92e.com'],
    ['x@example.xn--p1ai', 'x@example.xn--p1ai', 'x', 'example.xn--p1ai'],
    ['x@1and1.de', 'x@1and1.de', 'x', '1and1.de'],
    ['x@a-b--c.io', 'x@a-b--c.io', 'x', 'a-b--c.io'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`, 'a'.repeat(64), 'example.com'],
    [`x@${'a'.repeat(63)}.com`, `x@${'a'.repeat(63)}.com`, 'x', `${'a'.repeat(63)}.com`],
  ];
  it.each(valid)('accepts %j', (input, address, local, domain) => {
    expect(parseEmail(input)).toEqual({ address, local, domain });
  });

  const longDomain = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`;
  const invalid: [string, string][] = [
    ['', 'empty'],
    ['   ', 'blank'],
    ['example.com', 'no @'],
    ['a@b@example.com', 'two @'],
    ['@example.com', 'empty local'],
    ['user@', 'empty domain'],
    ['.user@example.com', 'leading dot'],
    ['user.@example.com', 'trailing dot'],
    ['us..er@example.com', 'double dot'],
    ['"quoted"@example.com', 'quoted local'],
    ['"a b"@example.com', 'quoted local with space'],
    ['user(comment)@example.com', 'comment'],
    ['us er@example.com', 'inner space'],
    ['usér@example.com', 'non-ASCII local'],
    ['user@exämple.com', 'Unicode domain'],
    ['user@[192.0.2.1]', 'IP literal'],
    ['user@[IPv6:2001:db8::1]', 'IPv6 literal'],
    ['user@192.0.2.1', 'numeric domain'],
    ['user@localhost', 'single label'],
    ['user@example.c', 'one-letter TLD'],
    ['user@example.c0m', 'TLD with digit'],
    ['user@example.com.', 'trailing dot in domain'],
    ['user@.example.com', 'leading dot in domain'],
    ['user@exa..mple.com', 'empty label'],
    ['user@-example.com', 'leading hyphen'],
    ['user@example-.com', 'trailing hyphen'],
    ['user@exa_mple.com', 'underscore in domain'],
    ['user@example.xn--', 'empty punycode TLD'],
    [`${'a'.repeat(65)}@example.com`, 'local over 64'],
    [`x@${'a'.repeat(64)}.com`, 'label over 63'],
    [`${'a'.repeat(64)}@${longDomain}`, 'address over 254'],
    ['user@exa\u0000mple.com', 'control character'],
  ];
  it.each(invalid)('rejects %j (%s) with invalid_email', (input) => {
    let thrown: unknown;
    try {
      parseEmail(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe('invalid_email');
    expect((thrown as ApiError).status).toBe(400);
  });

  it('explains a Unicode domain and never echoes the input', () => {
    expect(() => parseEmail('secret@exämple.com')).toThrow(/punycode/);
    try {
      parseEmail('secret@exämple.com');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
  });

  it('honours configured limits', () => {
    const limits = { maxLength: 20, maxLocalLength: 4, maxDomainLength: 253, maxLabelLength: 63 };
    expect(parseEmail('abcd@example.com', limits).local).toBe('abcd');
    expect(() => parseEmail('abcde@example.com', limits)).toThrow(ApiError);
    expect(() => parseEmail('abcd@example-long.com', limits)).toThrow(ApiError);
  });

  it('is idempotent on its own output', () => {
    const atom = fc.stringMatching(/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]{1,8}$/);
    const label = fc.stringMatching(/^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,8}[a-zA-Z0-9])?$/);
    fc.assert(
      fc.property(
        fc.array(atom, { minLength: 1, maxLength: 4 }),
        fc.array(label, { minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[a-zA-Z]{2,6}$/),
        (atoms, labels, tld) => {
          const parsed = parseEmail(`${atoms.join('.')}@${[...labels, tld].join('.')}`);
          expect(parseEmail(parsed.address)).toEqual(parsed);
          expect(parsed.domain).toBe(parsed.domain.toLowerCase());
        },
      ),
    );
  });
});

describe('accountKey and grantKey', () => {
  const rows: [string, string, string][] = [
    ['User@Example.com', 'user@example.com', 'user@example.com'],
    ['first.last+news@Example.com', 'first.last@example.com', 'firstlast@example.com'],
    ['First.Last+news@gmail.com', 'firstlast@gmail.com', 'firstlast@gmail.com'],
    ['f.i.r.s.t@googlemail.com', 'first@gmail.com', 'first@gmail.com'],
    ['first+a+b@GoogleMail.com', 'first@gmail.com', 'first@gmail.com'],
    ['a.b+x@outlook.com', 'a.b@outlook.com', 'ab@outlook.com'],
    ['+tag@example.com', '+tag@example.com', '+tag@example.com'],
    ['a.+x@example.com', 'a.@example.com', 'a@example.com'],
    ['a.b@sub.gmail.com', 'a.b@sub.gmail.com', 'ab@sub.gmail.com'],
  ];
  it.each(rows)('%s → account %s, grant %s', (email, account, grant) => {
    expect(accountKey(email)).toBe(account);
    expect(grantKey(email)).toBe(grant);
  });

  it('gives every +tag and dotted variant of one gmail box the same keys', () => {
    const variants = ['jane.doe@gmail.com', 'JaneDoe+a@gmail.com', 'j.a.n.e.d.o.e@googlemail.com'];
    expect(new Set(variants.map(accountKey))).toEqual(new Set(['janedoe@gmail.com']));
    expect(new Set(variants.map(grantKey))).toEqual(new Set(['janedoe@gmail.com']));
  });

  it('rejects invalid input', () => {
    expect(() => accountKey('nope')).toThrow(ApiError);
    expect(() => grantKey('a..b@example.com')).toThrow(ApiError);
  });
});

describe('isMajorProvider', () => {
  const rows: [string, boolean][] = [
    ['gmail.com', true],
    ['GMAIL.COM', true],
    ['googlemail.com', true],
    ['outlook.com', true],
    ['yahoo.co.jp', true],
    ['proton.me', true],
    ['pm.me', true],
    ['gmx.de', true],
    ['gmx.net', true],
    ['gmx.com', true],
    ['gmx.co.uk', true],
    ['gmx.com.br', true],
    ['gmx.example.com', false],
    ['evilgmx.de', false],
    ['gmx.d', false],
    ['mail.gmail.com', false],
    ['example.com', false],
    ['mailinator.com', false],
  ];
  it.each(rows)('%s → %s', (domain, expected) => {
    expect(isMajorProvider(domain)).toBe(expected);
  });

  it('takes a configured list with patterns', () => {
    expect(isMajorProvider('corp.example', ['corp.example'])).toBe(true);
    expect(isMajorProvider('gmail.com', ['corp.example'])).toBe(false);
    expect(isMajorProvider('acme.fr', ['acme.*'])).toBe(true);
  });
});

describe('parentDomains and isDisposableDomain', () => {
  it.each([
    ['a.b.mailinator.com', ['a.b.mailinator.com', 'b.mailinator.com', 'mailinator.com']],
    ['Mailinator.com', ['mailinator.com']],
    ['x.example.co.uk.', ['x.example.co.uk', 'example.co.uk', 'co.uk']],
    ['com', []],
  ] as [string, string[]][])('%s → %j', (domain, expected) => {
    expect(parentDomains(domain)).toEqual(expected);
  });

  const list = new Set(['mailinator.com', 'guerrillamail.com']);
  const has = (d: string): boolean => list.has(d);
  it.each([
    ['mailinator.com', true],
    ['a.b.mailinator.com', true],
    ['MAILINATOR.COM', true],
    ['notmailinator.com', false],
    ['mailinator.com.example.org', false],
    ['example.com', false],
  ] as [string, boolean][])('%s → %s', (domain, expected) => {
    expect(isDisposableDomain(domain, has)).toBe(expected);
  });

  it('never asks about the bare TLD', () => {
    const asked: string[] = [];
    isDisposableDomain('a.b.c', (d) => {
      asked.push(d);
      return false;
    });
    expect(asked).toEqual(['a.b.c', 'b.c']);
  });
});

describe('deliverability', () => {
  const mx = (...exchanges: string[]): Lookup<MxRecord> => ({
    ok: true,
    records: exchanges.map((exchange, priority) => ({ exchange, priority })),
  });
  const a = (...records: string[]): Lookup<string> => ({ ok: true, records });
  const nodata = { ok: false, reason: 'nodata' } as const;
  const nxdomain = { ok: false, reason: 'nxdomain' } as const;
  const failure = { ok: false, reason: 'failure' } as const;

  const rows: [string, Lookup<MxRecord>, Lookup<string> | undefined, string][] = [
    ['MX present', mx('mx1.example.com'), undefined, 'deliverable'],
    ['MX present, addresses ignored', mx('mx1.example.com'), failure, 'deliverable'],
    ['null MX ""', mx(''), a('192.0.2.1'), 'undeliverable'],
    ['null MX "."', mx('.'), undefined, 'undeliverable'],
    ['two null MX records', mx('', '.'), undefined, 'undeliverable'],
    ['null MX beside a real one', mx('.', 'mx.example.com'), undefined, 'deliverable'],
    ['MX failure', failure, a('192.0.2.1'), 'unknown'],
    ['MX failure, no address lookup', failure, undefined, 'unknown'],
    ['no MX (nodata), A present', nodata, a('192.0.2.1'), 'deliverable'],
    ['no MX (nodata), AAAA present', nodata, a('2001:db8::1'), 'deliverable'],
    ['no MX (empty ok), A present', mx(), a('192.0.2.1'), 'deliverable'],
    ['no MX (nodata), no addresses (nodata)', nodata, nodata, 'undeliverable'],
    ['no MX (nodata), no addresses (nxdomain)', nodata, nxdomain, 'undeliverable'],
    ['no MX (nodata), no addresses (empty ok)', nodata, a(), 'undeliverable'],
    ['no MX (empty ok), no addresses', mx(), nodata, 'undeliverable'],
    ['no MX (nodata), address failure', nodata, failure, 'unknown'],
    ['no MX (nodata), addresses not looked up', nodata, undefined, 'unknown'],
    ['nxdomain, A present', nxdomain, a('192.0.2.1'), 'deliverable'],
    ['nxdomain, addresses nxdomain', nxdomain, nxdomain, 'undeliverable'],
    ['nxdomain, address failure', nxdomain, failure, 'unknown'],
    ['nxdomain, addresses not looked up', nxdomain, undefined, 'undeliverable'],
  ];
  it.each(rows)('%s → %s', (_name, mxLookup, addressLookup, expected) => {
    expect(deliverability(mxLookup, addressLookup)).toBe(expected);
  });
});
