import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from './webhook-signature.ts';

const SECRET = 'whsec_5wM1s2lGk0pQ3v9yXbT7cR4nZ8aE6hJdLfUoViKqWxY';
const BODY = '{"id":"batch_01","status":"completed","results":[{"success":true,"data":"é ✓"}]}';
const T = 1_700_000_000;

/** The receiver's computation, in plain node:crypto: the reference the core must agree with. */
function nodeSignature(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

describe('signatureHeader', () => {
  it('matches an HMAC computed independently with node:crypto', async () => {
    expect(await signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${nodeSignature(SECRET, T, BODY)}`);
  });

  it('matches a fixed vector (key = the whole whsec_ string, message = "<t>.<body>")', async () => {
    // node -e "crypto.createHmac('sha256','whsec_test').update('1.{}').digest('hex')"
    expect(await signatureHeader('whsec_test', 1, '{}')).toBe(
      't=1,v1=7500d5d4be4b3ef07af1fe56f7d522d135cdaa7530de557e67cc1049c52de094',
    );
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses the timestamp %s', async (t) => {
    await expect(signatureHeader(SECRET, t, BODY)).rejects.toThrow(RangeError);
  });

  it('refuses an empty secret', async () => {
    await expect(signatureHeader('', T, BODY)).rejects.toThrow(RangeError);
  });
});

describe('verifySignature', () => {
  const good = `t=${T},v1=${nodeSignature(SECRET, T, BODY)}`;
  const rows: [string, string, string, string, number, boolean][] = [
    ['a valid signature', SECRET, good, BODY, T, true],
    ['upper-case hex', SECRET, good.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), BODY, T, true],
    ['spaces around the parts', SECRET, good.replace(',', ' , '), BODY, T, true],
    ['at the edge of the tolerance (past)', SECRET, good, BODY, T + 300, true],
    ['at the edge of the tolerance (future)', SECRET, good, BODY, T - 300, true],
    ['a stale timestamp', SECRET, good, BODY, T + 301, false],
    ['a timestamp too far ahead', SECRET, good, BODY, T - 301, false],
    ['another secret', `${SECRET}x`, good, BODY, T, false],
    ['the secret without its prefix', SECRET.slice(6), good, BODY, T, false],
    ['a changed body', SECRET, good, `${BODY} `, T, false],
    ['a changed timestamp', SECRET, good.replace(`t=${T}`, `t=${T + 1}`), BODY, T, false],
    ['one valid v1 among others', SECRET, `${good},v1=${'0'.repeat(64)},v0=abc`, BODY, T, true],
    ['only wrong v1s', SECRET, `t=${T},v1=${'0'.repeat(64)},v1=${'f'.repeat(64)}`, BODY, T, false],
    ['an empty header', SECRET, '', BODY, T, false],
    ['no timestamp', SECRET, `v1=${nodeSignature(SECRET, T, BODY)}`, BODY, T, false],
    ['no signature', SECRET, `t=${T}`, BODY, T, false],
    ['two timestamps', SECRET, `t=${T},${good}`, BODY, T, false],
    ['a timestamp with a sign', SECRET, good.replace(`t=${T}`, `t=+${T}`), BODY, T, false],
    ['a timestamp in exponent form', SECRET, good.replace(`t=${T}`, 't=1.7e9'), BODY, 1.7e9, false],
    ['a short signature', SECRET, good.slice(0, -2), BODY, T, false],
    ['a part without =', SECRET, `${good},junk`, BODY, T, false],
    ['an empty secret', '', `t=${T},v1=${nodeSignature('x', T, BODY)}`, BODY, T, false],
  ];

  it.each(rows)('%s', async (_name, secret, header, body, now, expected) => {
    expect(await verifySignature(secret, header, body, now)).toBe(expected);
  });

  it('takes a tolerance', async () => {
    expect(await verifySignature(SECRET, good, BODY, T + 10, 5)).toBe(false);
    expect(await verifySignature(SECRET, good, BODY, T + 10, 10)).toBe(true);
  });

  it('verifies what it signs, and only that (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.string({ unit: 'binary' }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        async (secret, body, t) => {
          const header = await signatureHeader(secret, t, body);
          expect(header).toBe(`t=${t},v1=${nodeSignature(secret, t, body)}`);
          expect(await verifySignature(secret, header, body, t)).toBe(true);
          expect(await verifySignature(secret, header, `${body}!`, t)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
