import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../test/fakes/random.ts';
import {
  cookieValue,
  isLive,
  isSameOrigin,
  isWellFormedToken,
  newSessionRecord,
  randomToken,
  SESSION_LIFETIME_MS,
  sessionCookie,
  sessionStorageKey,
  tokensEqual,
  VISITOR_LIFETIME_MS,
} from './session.ts';

describe('session tokens', () => {
  it('draws 256-bit url-safe tokens that differ', () => {
    const random = new SeededRandom(1);
    const a = randomToken(random);
    const b = randomToken(random);
    expect(isWellFormedToken(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it.each([undefined, '', 'short', `${'a'.repeat(42)}!`, 'a'.repeat(44), 42])('refuses %s', (value) => {
    expect(isWellFormedToken(value)).toBe(false);
  });

  it('stores a digest, never the id', async () => {
    const id = randomToken(new SeededRandom(2));
    const key = await sessionStorageKey(id);
    expect(key).toMatch(/^session:[0-9a-f]{64}$/);
    expect(key).not.toContain(id);
  });

  it.each([
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'abcd', false],
    ['', '', true],
  ])('tokensEqual(%s, %s) = %s', (a, b, equal) => {
    expect(tokensEqual(a, b)).toBe(equal);
  });
});

describe('session lifetime', () => {
  it.each([
    [{ kind: 'visitor' } as const, VISITOR_LIFETIME_MS],
    [{ kind: 'operator', via: { tokenDigest: 'd' } } as const, SESSION_LIFETIME_MS],
    [{ kind: 'account', accountId: 'acc_1', email: 'a@b.c' } as const, SESSION_LIFETIME_MS],
  ])('%o lives %d ms', (subject, lifetime) => {
    const record = newSessionRecord(subject, 't', 1_000);
    expect(isLive(record, 1_000 + lifetime - 1)).toBe(true);
    expect(isLive(record, 1_000 + lifetime)).toBe(false);
  });
});

describe('cookies and origins', () => {
  it('builds the cookie', () => {
    expect(sessionCookie('x', 3_600_000, false)).toBe(
      'tubescribe_session=x; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600',
    );
    expect(sessionCookie('', 0, true)).toBe(
      '__Host-tubescribe_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
  });

  it.each([
    ['a=1; tubescribe_session=xyz; b=2', 'xyz'],
    ['tubescribe_session_other=1', undefined],
    [undefined, undefined],
  ])('reads %s', (header, value) => {
    expect(cookieValue(header, 'tubescribe_session')).toBe(value);
  });

  it.each([
    ['https://a.example', undefined, true],
    ['https://b.example', undefined, false],
    ['null', undefined, false],
    [undefined, 'https://a.example/dashboard/keys', true],
    [undefined, 'https://a.example.evil/x', false],
    [undefined, 'not a url', false],
    [undefined, undefined, false],
    ['', '', false],
  ])('origin %s, referer %s → %s', (origin, referer, same) => {
    expect(isSameOrigin(origin, referer, 'https://a.example')).toBe(same);
  });
});
