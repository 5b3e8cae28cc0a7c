/**
 * Abuse resistance of agent sign-up, each property with its numbers printed (one line per test)
 * and asserted: codes from the Random port (a CSPRNG in production) stored only as an HMAC; 3
 * evaluated codes per sign-up however many guesses arrive at once; one key per sign-up under
 * concurrent verification; no account enumeration by status, headers, body or timing; throttles per
 * address, per client network and per domain.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withNode } from '../../adapters/node/index.ts';
import { createTubescribe } from '../../src/app.ts';
import { codeMac, generateCode, generateSignupToken } from '../../src/core/signup-code.ts';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { cryptoRandom, silentLogger } from '../../src/drivers/system.ts';
import type { KeyValue } from '../../src/ports/kv.ts';
import type { Ledger } from '../../src/ports/ledger.ts';
import type { Logger } from '../../src/ports/logger.ts';
import type { Random } from '../../src/ports/random.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { FakeUpstream } from '../fakes/upstream.ts';
import { expectError, expectJson } from '../helpers/http.ts';
import {
  CapturingMailer,
  dumpKv,
  median,
  nodeEnv,
  signupHarness,
  storedKeys,
  type VerifyBody,
} from './support.ts';

const SECRET = 'test-secret-test-secret-test-secret!';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A Random that records every draw (and can replay them). */
class CountingRandom implements Random {
  readonly draws: Uint8Array[] = [];
  constructor(private readonly inner: Random) {}
  bytes(length: number): Uint8Array {
    const out = this.inner.bytes(length);
    this.draws.push(out.slice());
    return out;
  }
}

/** Replays recorded draws in order (each call must ask for the recorded length). */
function replay(draws: readonly Uint8Array[]): Random {
  let next = 0;
  return {
    bytes(length: number) {
      const draw = draws[next++];
      if (!draw || draw.length !== length) throw new Error(`replay: draw ${next - 1} has another length`);
      return draw.slice();
    },
  };
}

/** The position in `draws` from which the token and then the code are produced, or -1. */
function tokenAndCodeAt(draws: readonly Uint8Array[], token: string, code: string): number {
  for (let i = 0; i < draws.length; i++) {
    try {
      const random = replay(draws.slice(i));
      if (generateSignupToken(random) === token && generateCode(random) === code) return i;
    } catch {
      // not here
    }
  }
  return -1;
}

/** A KeyValue that records every write (key and value) and delete. */
function recordingKv(inner: KeyValue, writes: string[]): KeyValue {
  return {
    get: (key) => inner.get(key),
    async set(key, value, options) {
      writes.push(`set ${key} ${JSON.stringify(value)}`);
      await inner.set(key, value, options);
    },
    async delete(key) {
      writes.push(`delete ${key}`);
      await inner.delete(key);
    },
    list: (prefix) => inner.list(prefix),
  };
}

/** A Ledger that records every call with its arguments and result. */
function recordingLedger(inner: Ledger, calls: string[]): Ledger {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        calls.push(`${String(prop)} ${JSON.stringify(args)} → ${JSON.stringify(result)}`);
        return result;
      };
    },
  });
}

/** Counts HMAC computations over the sign-up code of `token` (the code check is one per verify). */
function countCodeChecks(): { count(token: string): number } {
  const seen: string[] = [];
  const sign = crypto.subtle.sign.bind(crypto.subtle);
  vi.spyOn(crypto.subtle, 'sign').mockImplementation((async (...args: Parameters<SubtleCrypto['sign']>) => {
    const data = args[2];
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data as ArrayBuffer);
    seen.push(new TextDecoder().decode(bytes));
    return sign(...args);
  }) as SubtleCrypto['sign']);
  return {
    count: (token) => seen.filter((text) => text.startsWith(`tubescribe/signup-code\n${token}\n`)).length,
  };
}

/** The error codes (or `201`) of responses, tallied. */
async function tally(responses: Response[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const res of responses) {
    const body = (await res.json()) as { error?: { code: string } };
    const key = res.status === 201 ? '201' : (body.error?.code ?? String(res.status));
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

function wrongCode(code: string, i = 0): string {
  const guess = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
  return guess === code ? String((Number(code) + 2 + i) % 1_000_000).padStart(6, '0') : guess;
}

describe('codes: from the CSPRNG port, stored only as an HMAC', () => {
  it('token and code are drawn from the injected Random, in order', async () => {
    const random = new CountingRandom(new SeededRandom(99));
    const t = await signupHarness({ random });
    const draws = random.draws.length;
    const { token, code } = await t.start('ivy@example.org');
    const during = random.draws.slice(draws);
    const at = tokenAndCodeAt(during, token, code);
    expect(at).toBeGreaterThanOrEqual(0);
    // Re-derive the code by hand from the draw after the token: bytes < 250, each mod 10.
    const codeDraw = [...during.slice(at + 1)].flatMap((d) => [...d]);
    const digits = codeDraw
      .filter((b) => b < 250)
      .slice(0, 6)
      .map((b) => b % 10)
      .join('');
    expect(digits).toBe(code);
    console.log(
      `CSPRNG port: sign-up drew ${during.length} times (${during.reduce((n, d) => n + d.length, 0)} bytes); ` +
        `token from draw ${at}, code ${code} from draw ${at + 1} (${during[at + 1]!.length} bytes)`,
    );
  });

  it('by default the Random is crypto.getRandomValues, and the code is made of its bytes', async () => {
    const drawn: Uint8Array[] = [];
    const real = crypto.getRandomValues.bind(crypto);
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(
      <T extends ArrayBufferView | null>(array: T): T => {
        const out = real(array as never) as unknown as T;
        if (out instanceof Uint8Array) drawn.push(out.slice());
        return out;
      },
    );
    const mailer = new CapturingMailer();
    const ts = createTubescribe(withNode({ mailer, logger: silentLogger, upstream: new FakeUpstream() }));
    await ts.start();
    expect(ts.ports.random).toBe(cryptoRandom);
    const before = drawn.length;
    const res = await ts.app.request(
      '/api/agent/signup',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'jo@example.org' }),
      },
      nodeEnv('192.0.2.9'),
    );
    const { signup_token: token } = await expectJson<{ signup_token: string }>(res);
    const code = mailer.codeFor('jo@example.org');
    expect(tokenAndCodeAt(drawn.slice(before), token, code)).toBeGreaterThanOrEqual(0);
    await ts.close();
  });

  it('a dump of storage, every value ever written, every ledger call and the logs hold no code, only its HMAC', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const writes: string[] = [];
    const ledgerCalls: string[] = [];
    const logs: string[] = [];
    const memory = createMemoryKv(clock);
    const kv = recordingKv(memory, writes);
    const ledger = recordingLedger(createEmbeddedLedger({ clock, kv }), ledgerCalls);
    const logger: Logger = {
      log: (level, message, fields) => logs.push(JSON.stringify({ level, message, fields })),
    };
    const t = await signupHarness({ clock, kv, ledger, logger, seed: 5 });
    const secret = new TextEncoder().encode(SECRET);

    const codes: string[] = [];
    const macs: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { token, code } = await t.start(`keeper${i}@example.org`);
      codes.push(code);
      macs.push(await codeMac(secret, token, code));
      if (i % 4 === 1) await expectError(await t.verify(token, wrongCode(code)), 400, 'invalid_code');
      if (i % 4 === 2) await expectJson(await t.verify(token, code), 201);
    }
    const dump = await dumpKv(memory);
    const texts = {
      dump: JSON.stringify(dump),
      writes: writes.join('\n'),
      ledger: ledgerCalls.join('\n'),
      logs: logs.join('\n'),
    };
    for (const code of codes) {
      for (const [where, text] of Object.entries(texts))
        expect(text.includes(code), `${code} in ${where}`).toBe(false);
    }
    // The pending sign-ups (not completed) hold their HMAC, and the writes held every one.
    for (const [i, mac] of macs.entries()) {
      expect(texts.writes).toContain(mac);
      if (i % 4 !== 2) expect(texts.dump).toContain(mac);
    }
    console.log(
      `storage dump: ${dump.length} keys (${texts.dump.length} chars), ${writes.length} writes, ` +
        `${ledgerCalls.length} ledger calls, ${logs.length} log lines: 0 of ${codes.length} codes found; ` +
        `${macs.length} HMACs found in the writes`,
    );
  });
});

describe('wrong codes: at most 3 are evaluated per sign-up', () => {
  it('50 wrong guesses at once: exactly 3 code checks, 2 invalid_code, none succeeds; then the right code fails too', async () => {
    const t = await signupHarness();
    const { token, code } = await t.start('guess@example.org');
    const checks = countCodeChecks();
    const guesses = Array.from({ length: 50 }, (_, i) => t.verify(token, wrongCode(code, i)));
    const counts = await tally(await Promise.all(guesses));
    expect(checks.count(token)).toBe(3);
    expect(counts['201']).toBeUndefined();
    expect(counts.invalid_code).toBe(2);
    expect(counts.too_many_attempts).toBeGreaterThanOrEqual(1);
    expect((counts.too_many_attempts ?? 0) + (counts.invalid_signup_token ?? 0)).toBe(48);
    const after = await t.verify(token, code);
    expect(after.status).toBe(400);
    const afterCode = ((await after.json()) as { error: { code: string } }).error.code;
    expect(['too_many_attempts', 'invalid_signup_token']).toContain(afterCode);
    expect(checks.count(token)).toBe(3);
    expect(await storedKeys(t)).toBe(0);
    console.log(
      `50 concurrent wrong codes: ${checks.count(token)} evaluated, responses ${JSON.stringify(counts)}; ` +
        `then the right code → ${afterCode}`,
    );
  });

  it('the budget is per token, not per burst: after 3 wrong codes a burst holding the right code gets nothing', async () => {
    const t = await signupHarness();
    const { token, code } = await t.start('late@example.org');
    const checks = countCodeChecks();
    const first = await tally(await Promise.all([0, 1, 2].map((i) => t.verify(token, wrongCode(code, i)))));
    const burst = Array.from({ length: 47 }, (_, i) =>
      t.verify(token, i % 2 === 0 ? code : wrongCode(code, i)),
    );
    const second = await tally(await Promise.all(burst));
    expect(first).toEqual({ invalid_code: 2, too_many_attempts: 1 });
    expect(second['201']).toBeUndefined();
    expect(checks.count(token)).toBe(3);
    console.log(
      `3 wrong codes ${JSON.stringify(first)}, then 47 at once (24 with the right code) ${JSON.stringify(second)}; ` +
        `${checks.count(token)} code checks in all`,
    );
  });
});

describe('a replaced sign-up stays replaced', () => {
  it('a wrong-code verify still in flight when a new sign-up replaces the token cannot revive the old token', async () => {
    const t = await signupHarness();
    const old = await t.start('swap@example.org');
    // Hold the code check of the old token until the new sign-up has replaced it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached!: () => void;
    const checking = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const sign = crypto.subtle.sign.bind(crypto.subtle);
    vi.spyOn(crypto.subtle, 'sign').mockImplementation((async (...args: Parameters<SubtleCrypto['sign']>) => {
      const text = new TextDecoder().decode(args[2] as Uint8Array);
      if (text.includes(`\n${old.token}\n`)) {
        reached();
        await gate;
      }
      return sign(...args);
    }) as SubtleCrypto['sign']);
    const inFlight = t.verify(old.token, wrongCode(old.code));
    await checking;
    const replacement = await t.start('swap@example.org');
    release();
    const first = await inFlight;
    const outcomes = [first.status];
    await first.body?.cancel();
    const revived = await t.verify(old.token, old.code);
    outcomes.push(revived.status);
    await expectError(revived, 400, 'invalid_signup_token');
    await expectJson(await t.verify(replacement.token, replacement.code), 201);
    expect(await storedKeys(t)).toBe(1);
    console.log(
      `replaced token with a verify in flight: in-flight → ${outcomes[0]}, old code afterwards → ${outcomes[1]}`,
    );
  });
});

describe('concurrent verification with the correct code', () => {
  for (const n of [2, 20]) {
    it(`${n} at once create exactly one key`, async () => {
      const t = await signupHarness();
      const { token, code } = await t.start(`race${n}@example.org`);
      const checks = countCodeChecks();
      const responses = await Promise.all(Array.from({ length: n }, () => t.verify(token, code)));
      const bodies = await Promise.all(responses.map((r) => r.clone().json() as Promise<VerifyBody>));
      const counts = await tally(responses);
      expect(counts['201']).toBe(1);
      // The other evaluated calls lose the consume-once claim (invalid_signup_token); calls beyond the
      // 3 code checks of a token are refused unevaluated (too_many_attempts).
      expect((counts.invalid_signup_token ?? 0) + (counts.too_many_attempts ?? 0)).toBe(n - 1);
      expect(counts.invalid_signup_token).toBeGreaterThanOrEqual(Math.min(n, 3) - 1);
      const kv = t.ts.ports.kv;
      expect((await kv.list('apikey:')).length).toBe(1);
      expect((await kv.list('account:')).length).toBe(1);
      const created = bodies[responses.findIndex((r) => r.status === 201)]!;
      const me = await expectJson(await t.call('/v1/account', { key: created.api_key }));
      expect(me.credits).toBe(200);
      expect(checks.count(token)).toBe(Math.min(n, 3));
      console.log(
        `${n} concurrent correct verifications: ${JSON.stringify(counts)}; keys in storage 1, accounts 1, ` +
          `${checks.count(token)} code checks`,
      );
    });
  }

  it('two variants of one grant key verified at once share one free grant', async () => {
    const t = await signupHarness();
    const a = await t.start('x.y@example.org');
    const b = await t.start('xy+agent@example.org');
    const [ra, rb] = await Promise.all([t.verify(a.token, a.code), t.verify(b.token, b.code)]);
    const [va, vb] = [await expectJson<VerifyBody>(ra, 201), await expectJson<VerifyBody>(rb, 201)];
    expect(va.credits + vb.credits).toBe(200);
    console.log(`concurrent a grant-key pair: credits ${va.credits} + ${vb.credits}`);
  });
});

describe('no account enumeration through POST /api/agent/signup', () => {
  it('same status, headers and body shape; timing indistinguishable (200 each, interleaved, mail included)', async () => {
    const warmup = 20;
    const rounds = 200;
    const mailer = new CapturingMailer();
    mailer.delayMs = 2;
    const t = await signupHarness({ mailer });
    for (let i = 0; i < warmup + rounds; i++) await t.key(0, { email: `known${i}@example.org` });

    const time = async (email: string) => {
      const started = performance.now();
      const res = await t.signup(email);
      const text = await res.text();
      return { ms: performance.now() - started, res, body: JSON.parse(text) as Record<string, unknown> };
    };
    const fresh: number[] = [];
    const known: number[] = [];
    const headers = (res: Response) => [...res.headers].filter(([name]) => name !== 'x-request-id');
    for (let i = 0; i < warmup + rounds; i++) {
      const order = i % 2 === 0 ? (['fresh', 'known'] as const) : (['known', 'fresh'] as const);
      const results: Record<string, Awaited<ReturnType<typeof time>>> = {};
      for (const kind of order) results[kind] = await time(`${kind}${i}@example.org`);
      const f = results.fresh!;
      const k = results.known!;
      expect(f.res.status).toBe(200);
      expect(k.res.status).toBe(f.res.status);
      expect(headers(k.res)).toEqual(headers(f.res));
      expect(Object.keys(k.body).sort()).toEqual(Object.keys(f.body).sort());
      expect({ ...k.body, signup_token: '' }).toEqual({ ...f.body, signup_token: '' });
      if (i >= warmup) {
        fresh.push(f.ms);
        known.push(k.ms);
      }
    }
    expect(mailer.messages).toHaveLength(2 * (warmup + rounds));
    const [mf, mk] = [median(fresh), median(known)];
    console.log(
      `timing over ${rounds} each (mailer delay ${mailer.delayMs} ms): median fresh ${mf.toFixed(3)} ms, ` +
        `median with account ${mk.toFixed(3)} ms, difference ${Math.abs(mf - mk).toFixed(3)} ms`,
    );
    expect(Math.abs(mf - mk)).toBeLessThan(5);
  });
});

describe('throttles', () => {
  const status = async (res: Response) => {
    await res.body?.cancel();
    return res.status;
  };

  it('per address: the grant key, so +tag and dotted variants share one budget', async () => {
    const t = await signupHarness({ signup: { throttles: { address: [{ limit: 3, window: 3600 }] } } });
    const variants = [
      'ann.lee@example.org',
      'Ann.Lee+1@example.org',
      'annlee@example.org',
      'a.n.n.l.e.e+x@EXAMPLE.org',
    ];
    const got: number[] = [];
    for (const [i, email] of variants.entries())
      got.push(await status(await t.signup(email, `198.51.100.${i + 1}`)));
    got.push(await status(await t.signup('other@example.org', '198.51.100.9')));
    expect(got).toEqual([200, 200, 200, 429, 200]);
    console.log(`address throttle (3/h): ${variants.join(', ')}, other → ${got.join(', ')}`);
  });

  it('per client network: /24 for IPv4, /56 for IPv6, IPv4-mapped IPv6 as its IPv4 /24', async () => {
    const t = await signupHarness({ signup: { throttles: { network: [{ limit: 2, window: 3600 }] } } });
    const cases: [string, number][] = [
      ['203.0.113.5', 200],
      ['203.0.113.77', 200],
      ['203.0.113.200', 429],
      ['::ffff:203.0.113.9', 429],
      ['::ffff:cb00:710a', 429],
      ['203.0.114.5', 200],
      ['::ffff:203.0.115.1', 200],
      ['203.0.115.2', 200],
      ['203.0.115.3', 429],
      ['2001:db8:abcd:1200::1', 200],
      ['2001:db8:abcd:12ff:ffff::2', 200],
      ['2001:DB8:ABCD:12ab::3', 429],
      ['2001:db8:abcd:1300::1', 200],
    ];
    const got: number[] = [];
    for (const [i, [ip]] of cases.entries())
      got.push(await status(await t.signup(`net${i}@example.org`, ip)));
    expect(got).toEqual(cases.map(([, expected]) => expected));
    console.log(`network throttle (2/h): ${cases.map(([ip], i) => `${ip}→${got[i]}`).join(' ')}`);
  });

  it('verify calls per client network share the same networks', async () => {
    const t = await signupHarness({ signup: { throttles: { verifyNetwork: [{ limit: 2, window: 3600 }] } } });
    const token = `sut_${'d'.repeat(32)}`;
    const got: number[] = [];
    for (const ip of ['203.0.113.5', '::ffff:203.0.113.6', '203.0.113.7', '203.0.116.1']) {
      got.push(await status(await t.verify(token, '123456', ip)));
    }
    expect(got).toEqual([400, 400, 429, 400]);
  });

  it('free-credit grants per non-major domain per UTC day', async () => {
    const t = await signupHarness({
      signup: { throttles: { domainGrants: [{ limit: 3, window: 'utc-day' }] } },
    });
    const credits: number[] = [];
    for (let i = 0; i < 5; i++) credits.push((await t.complete(`staff${i}@smallco.example`)).credits);
    const gmail = (await t.complete('staff@gmail.com')).credits;
    t.clock.set('2026-03-02T00:00:00.000Z');
    const nextDay = (await t.complete('staff9@smallco.example')).credits;
    expect(credits).toEqual([200, 200, 200, 0, 0]);
    expect(gmail).toBe(200);
    expect(nextDay).toBe(200);
    console.log(
      `domain grants (3/day): smallco.example ${credits.join(', ')}; gmail.com ${gmail}; next UTC day ${nextDay}`,
    );
  });
});
