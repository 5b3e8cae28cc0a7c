/**
 * Sign-up email addresses: practical validation with a normalised domain, the account and grant keys
 * (one account and one free grant per mailbox, however the address is spelled), the major-provider
 * and disposable-domain tests, and the MX/A/AAAA deliverability verdict.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { Lookup, MxRecord } from '../ports/dns.ts';

/** A validated sign-up address. */
export interface ParsedEmail {
  /** `local@domain`: the local part as typed, the domain lower-cased. Mail goes here. */
  address: string;
  /** The local part exactly as typed (case kept: only the receiving server may fold it). */
  local: string;
  /** The lower-cased ASCII domain. */
  domain: string;
}

/** Length limits of {@link parseEmail}. */
export interface EmailLimits {
  /** Whole address (RFC 5321 path limit minus the angle brackets). */
  maxLength: number;
  /** Local part (RFC 5321 §4.5.3.1.1). */
  maxLocalLength: number;
  /** Domain (RFC 1035). */
  maxDomainLength: number;
  /** One domain label (RFC 1035). */
  maxLabelLength: number;
}

/** The defaults of {@link EmailLimits}: the SMTP and DNS maxima. */
const EMAIL_LIMITS: EmailLimits = {
  maxLength: 254,
  maxLocalLength: 64,
  maxDomainLength: 253,
  maxLabelLength: 63,
};

/** RFC 5322 `atext`: one atom of a dot-atom local part. */
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
/** A letter-digit-hyphen label, already lower-cased, without a leading or trailing hyphen. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** A top-level domain: letters only, or a punycode (`xn--`) label. */
const TLD = /^(?:[a-z]{2,}|xn--[a-z0-9-]*[a-z0-9])$/;
const NON_PRINTABLE_ASCII = /[^\x21-\x7e]/;

function invalid(message: string): ApiError {
  return new ApiError('invalid_email', message);
}

/**
 * Validates a sign-up address practically (not full RFC 5322) and normalises its domain.
 *
 * Accepted: surrounding whitespace (trimmed); a dot-atom local part (RFC 5322 `atext`, no
 * leading, trailing or double dots); exactly one `@`; a domain of at least two LDH labels whose
 * last label is alphabetic or punycode (`xn--…`), at least two characters long.
 * Rejected: quoted local parts, comments, IP-literal or numeric domains, a trailing dot, and any
 * non-ASCII character. Internationalised domains must be given in their punycode form: a
 * correct Unicode → punycode conversion needs the full IDNA mapping tables, and an approximate one
 * would let two spellings of one domain map to different keys.
 *
 * @throws ApiError `invalid_email` with a message that says what is wrong (never echoing the input).
 */
export function parseEmail(input: string, limits: EmailLimits = EMAIL_LIMITS): ParsedEmail {
  const text = input.trim();
  if (text === '') throw invalid('An email address is required.');
  if (text.length > limits.maxLength) {
    throw invalid(`The email address is longer than ${limits.maxLength} characters.`);
  }
  const at = text.indexOf('@');
  if (at < 0 || text.indexOf('@', at + 1) >= 0)
    throw invalid('The email address must contain exactly one "@".');
  const local = text.slice(0, at);
  const rawDomain = text.slice(at + 1);
  validateLocal(local, limits);
  const domain = validateDomain(rawDomain, limits);
  return { address: `${local}@${domain}`, local, domain };
}

function validateLocal(local: string, limits: EmailLimits): void {
  if (local === '') throw invalid('The part before "@" is empty.');
  if (local.length > limits.maxLocalLength) {
    throw invalid(`The part before "@" is longer than ${limits.maxLocalLength} characters.`);
  }
  if (NON_PRINTABLE_ASCII.test(local)) {
    throw invalid('The part before "@" may only hold printable ASCII characters without spaces.');
  }
  if (local.includes('"') || local.includes('(')) {
    throw invalid('Quoted local parts and comments are not supported.');
  }
  if (local.split('.').some((atom) => atom === '')) {
    throw invalid('The part before "@" may not start or end with a dot or hold two dots in a row.');
  }
  if (!local.split('.').every((atom) => ATOM.test(atom))) {
    throw invalid('The part before "@" holds a character that is not allowed.');
  }
}

function validateDomain(raw: string, limits: EmailLimits): string {
  if (raw === '') throw invalid('The domain after "@" is empty.');
  if (raw.startsWith('[')) throw invalid('IP-address domains are not accepted.');
  if (NON_PRINTABLE_ASCII.test(raw)) {
    throw invalid('The domain must be ASCII; write an internationalised domain in its punycode (xn--) form.');
  }
  const domain = raw.toLowerCase();
  if (domain.length > limits.maxDomainLength) {
    throw invalid(`The domain is longer than ${limits.maxDomainLength} characters.`);
  }
  const labels = domain.split('.');
  if (labels.length < 2) throw invalid('The domain needs at least two labels, such as example.com.');
  for (const label of labels) {
    if (label === '') throw invalid('The domain may not start or end with a dot or hold two dots in a row.');
    if (label.length > limits.maxLabelLength) {
      throw invalid(`A domain label is longer than ${limits.maxLabelLength} characters.`);
    }
    if (!LABEL.test(label)) {
      throw invalid('Domain labels hold letters, digits and inner hyphens only.');
    }
  }
  if (!TLD.test(labels[labels.length - 1]!)) {
    throw invalid('The top-level domain must be alphabetic (or punycode) and at least two characters long.');
  }
  return domain;
}

/**
 * The *account key*: one account per key. Lower-cased, `+tag` removed (only when something
 * precedes the `+`), dots removed only for gmail.com and googlemail.com, googlemail.com → gmail.com.
 *
 * @throws ApiError `invalid_email` when `email` is not valid (see {@link parseEmail}).
 */
export function accountKey(email: string): string {
  const { local, domain } = parseEmail(email);
  const host = domain === 'googlemail.com' ? 'gmail.com' : domain;
  let box = local.toLowerCase();
  const plus = box.indexOf('+');
  if (plus > 0) box = box.slice(0, plus);
  if (host === 'gmail.com') box = box.replaceAll('.', '');
  return `${box}@${host}`;
}

/**
 * The *grant key*: the {@link accountKey} with every dot of the local part removed, for every
 * domain. Free credits are granted once per grant key and sign-up throttles are keyed by it.
 *
 * @throws ApiError `invalid_email` when `email` is not valid.
 */
export function grantKey(email: string): string {
  const key = accountKey(email);
  const at = key.lastIndexOf('@');
  return `${key.slice(0, at).replaceAll('.', '')}${key.slice(at)}`;
}

/**
 * Large mailbox providers: known deliverable (no DNS lookup needed) and exempt from the per-domain
 * daily cap on free-credit grants. An entry ending in `.*` matches its name under any one-label
 * top-level domain or any `co.`/`com.` country domain (`gmx.*` matches gmx.de, gmx.net, gmx.co.uk,
 * gmx.com.br, but not gmx.example.com).
 */
export const MAJOR_PROVIDERS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.it',
  'hotmail.es',
  'live.com',
  'live.co.uk',
  'live.fr',
  'live.de',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.it',
  'yahoo.es',
  'yahoo.ca',
  'yahoo.in',
  'yahoo.co.in',
  'yahoo.co.jp',
  'yahoo.com.au',
  'yahoo.com.br',
  'yahoo.com.mx',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'protonmail.ch',
  'pm.me',
  'gmx.*',
  'web.de',
  'aol.com',
  'yandex.ru',
  'yandex.com',
  'mail.ru',
  'zoho.com',
  'fastmail.com',
  't-online.de',
  'qq.com',
  '163.com',
  'naver.com',
];

/** True when `domain` (any case) is one of `providers` (default {@link MAJOR_PROVIDERS}), patterns included. */
export function isMajorProvider(domain: string, providers: readonly string[] = MAJOR_PROVIDERS): boolean {
  const host = domain.toLowerCase().replace(/\.$/, '');
  for (const entry of providers) {
    if (!entry.endsWith('.*')) {
      if (entry === host) return true;
      continue;
    }
    const name = entry.slice(0, -1);
    if (!host.startsWith(name)) continue;
    const tail = host.slice(name.length);
    if (/^[a-z]{2,}$/.test(tail) || /^(?:co|com)\.[a-z]{2}$/.test(tail)) return true;
  }
  return false;
}

/**
 * `domain` and each parent of it, longest first, stopping before the bare top-level domain:
 * `a.b.mailinator.com` → `a.b.mailinator.com`, `b.mailinator.com`, `mailinator.com`.
 * Lower-cases and drops one trailing dot; a single label gives `[]`.
 */
export function parentDomains(domain: string): string[] {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/**
 * True when `domain` or any parent of it (see {@link parentDomains}) is on the disposable list,
 * asked through `has` (the list itself comes from a maintained npm package, injected by a driver).
 */
export function isDisposableDomain(domain: string, has: (domain: string) => boolean): boolean {
  return parentDomains(domain).some(has);
}

/** The verdict of {@link deliverability}. `unknown` is let through by the caller. */
export type Deliverability = 'deliverable' | 'undeliverable' | 'unknown';

/** True for a null MX (RFC 7505): the exchange is the root, written `''` or `.`. */
function isNullMx(record: MxRecord): boolean {
  return record.exchange === '' || record.exchange === '.';
}

/**
 * Decides whether a domain can receive mail from its MX and (optionally) A/AAAA lookups.
 * The address lookup is consulted only when the MX lookup found no records.
 *
 * | MX lookup                                   | A/AAAA lookup              | verdict       |
 * |---------------------------------------------|----------------------------|---------------|
 * | records, at least one not a null MX         | (not consulted)            | deliverable   |
 * | records, every one a null MX (`''` or `.`)  | (not consulted)            | undeliverable |
 * | `failure`                                   | (not consulted)            | unknown       |
 * | `nodata`, or `ok` with no records           | records                    | deliverable   |
 * | `nodata`, or `ok` with no records           | `nodata`/`nxdomain`/none   | undeliverable |
 * | `nodata`, or `ok` with no records           | `failure`                  | unknown       |
 * | `nodata`, or `ok` with no records           | not looked up (undefined)  | unknown       |
 * | `nxdomain`                                  | records                    | deliverable   |
 * | `nxdomain`                                  | `nodata`/`nxdomain`/none   | undeliverable |
 * | `nxdomain`                                  | `failure`                  | unknown       |
 * | `nxdomain`                                  | not looked up (undefined)  | undeliverable |
 *
 * Real MX records beside a null MX violate RFC 7505; the real ones win (mail may still arrive).
 * An `nxdomain` MX answer means the domain does not exist, so no address lookup is needed.
 */
export function deliverability(mx: Lookup<MxRecord>, addresses: Lookup<string> | undefined): Deliverability {
  if (mx.ok && mx.records.length > 0) {
    return mx.records.some((record) => !isNullMx(record)) ? 'deliverable' : 'undeliverable';
  }
  if (!mx.ok && mx.reason === 'failure') return 'unknown';
  if (addresses === undefined) return !mx.ok && mx.reason === 'nxdomain' ? 'undeliverable' : 'unknown';
  if (addresses.ok) return addresses.records.length > 0 ? 'deliverable' : 'undeliverable';
  return addresses.reason === 'failure' ? 'unknown' : 'undeliverable';
}
