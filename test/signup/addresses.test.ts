/**
 * Sign-up addresses through the API: deliverability through `createNodeResolver` asking a fake DNS
 * server on 127.0.0.1 (MX, null MX, A/AAAA fallback, NXDOMAIN, SERVFAIL and timeouts, no lookup
 * for major providers), and decisions.md's two canonical forms: the account key (one account;
 * gmail dots and googlemail) and the grant key (one free grant for `+tag` and dotted variants),
 * with the per-domain daily cap on free grants outside the major providers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeResolver } from '../../src/drivers/node/resolver-node.ts';
import { type FakeDns, startFakeDns, startSilentUdp } from '../helpers/dns.ts';
import { expectError, expectJson } from '../helpers/http.ts';
import { signupHarness, storedKeys, type VerifyBody } from './support.ts';

let dns: FakeDns;
let silent: Awaited<ReturnType<typeof startSilentUdp>>;

beforeAll(async () => {
  dns = await startFakeDns({
    'mx.example': { MX: [[10, 'mail.mx.example']] },
    'backup.example': {
      MX: [
        [20, 'b.backup.example'],
        [10, 'a.backup.example'],
      ],
    },
    'nullmx.example': { MX: [[0, '']], A: ['192.0.2.11'] },
    'aonly.example': { A: ['192.0.2.12'] },
    'v6only.example': { AAAA: ['2001:db8::13'] },
    'nothing.example': {},
    'nx.example': 'NXDOMAIN',
    'servfail.example': 'SERVFAIL',
    'refused.example': 'REFUSED',
    'afail.example': { fail: ['A', 'AAAA'] },
  });
  silent = await startSilentUdp();
});

afterAll(async () => {
  await dns?.close();
  await silent?.close();
});

const dnsApp = () =>
  signupHarness({ resolver: createNodeResolver({ servers: [`127.0.0.1:${dns.port}`], timeoutMs: 2_000 }) });

describe('deliverability through createNodeResolver and a fake DNS server', () => {
  it('MX → ok; null MX → undeliverable; no MX but A or AAAA → ok; NXDOMAIN or nothing → undeliverable', async () => {
    const t = await dnsApp();
    const cases: [string, 'ok' | 'undeliverable'][] = [
      ['mx.example', 'ok'],
      ['backup.example', 'ok'],
      ['nullmx.example', 'undeliverable'],
      ['aonly.example', 'ok'],
      ['v6only.example', 'ok'],
      ['nx.example', 'undeliverable'],
      ['unknown-name.example', 'undeliverable'],
      ['nothing.example', 'undeliverable'],
    ];
    for (const [domain, verdict] of cases) {
      const res = await t.signup(`ada@${domain.toUpperCase()}`);
      if (verdict === 'ok') await expectJson(res);
      else await expectError(res, 400, 'undeliverable_email');
    }
    expect(t.mailer.messages.map((m) => m.to)).toEqual([
      'ada@mx.example',
      'ada@backup.example',
      'ada@aonly.example',
      'ada@v6only.example',
    ]);
    const asked = (name: string) =>
      dns.questions
        .filter((q) => q.name === name)
        .map((q) => q.type)
        .sort();
    expect(asked('mx.example')).toEqual(['MX']); // a real MX is final
    expect(asked('nullmx.example')).toEqual(['MX']); // so is a null MX
    expect(asked('aonly.example')).toEqual(['A', 'AAAA', 'MX']);
  });

  it('SERVFAIL, REFUSED, failed address lookups and a silent server let the address through', async () => {
    const t = await dnsApp();
    for (const domain of ['servfail.example', 'refused.example', 'afail.example']) {
      await expectJson(await t.signup(`ada@${domain}`));
    }
    const quiet = await signupHarness({
      resolver: createNodeResolver({ servers: [`127.0.0.1:${silent.port}`], timeoutMs: 300 }),
    });
    const started = performance.now();
    await expectJson(await quiet.signup('ada@mx.example'));
    const elapsed = performance.now() - started;
    expect(silent.received()).toBeGreaterThan(0);
    console.log(`DNS timeout: sign-up let through after ${elapsed.toFixed(0)} ms (resolver timeout 300 ms)`);
    expect(elapsed).toBeLessThan(5_000); // bounded by the resolver's own deadline, not hanging
  });

  it('major providers need no lookup: the DNS server sees no query for them', async () => {
    const t = await dnsApp();
    const before = dns.questions.length;
    for (const email of [
      'ada@gmail.com',
      'ada@googlemail.com',
      'ada@outlook.com',
      'ada@yahoo.co.jp',
      'ada@GMX.de',
      'ada@proton.me',
    ]) {
      await expectJson(await t.signup(email));
    }
    expect(dns.questions.slice(before)).toEqual([]);
    await expectJson(await t.signup('ada@mx.example'));
    expect(dns.questions.slice(before)).toEqual([{ name: 'mx.example', type: 'MX' }]);
  });
});

/** Signs `email` up and verifies; returns the HTTP status and body. */
async function attempt(t: Awaited<ReturnType<typeof signupHarness>>, email: string) {
  const { token, code } = await t.start(email);
  const res = await t.verify(token, code);
  return { status: res.status, body: (await res.json()) as VerifyBody & { error?: { code: string } } };
}

describe('account key and grant key', () => {
  it('+tag and dotted variants get ONE grant: the second account gets 0 credits and the notes say why', async () => {
    const t = await signupHarness();
    const first = await t.complete('a.b+x@example.org');
    expect(first.credits).toBe(200);
    expect(first.notes).toContain('starts with 200 free credits');
    // Another account (outside gmail, dots are part of the mailbox) but the same grant key `ab@example.org`.
    const second = await t.complete('ab@example.org');
    expect(second.credits).toBe(0);
    expect(second.notes).toContain(
      'No free credits were granted: this address (or a +tag or dotted variant) already received them',
    );
    const accounts = await Promise.all(
      [first, second].map(
        async (v) => (await expectJson(await t.call('/v1/account', { key: v.api_key }))).account_id,
      ),
    );
    expect(new Set(accounts).size).toBe(2);
    for (const variant of ['a.b+y@example.org', 'A.B@example.org', 'a.b+z@EXAMPLE.org']) {
      const { status, body } = await attempt(t, variant); // account key a.b@example.org: the first account
      expect(status, variant).toBe(409);
      expect(body.error?.code).toBe('account_exists');
    }
    const third = await t.complete('a.b.c@example.org');
    expect(third.credits).toBe(200);
    // Mail went to each address as typed.
    expect(t.mailer.messages.map((m) => m.to)).toContain('A.B@example.org');
  });

  it('gmail: dots, +tags and googlemail.com are one account (409 account_exists)', async () => {
    const t = await signupHarness();
    const first = await t.complete('John.Doe@gmail.com');
    expect(first.credits).toBe(200);
    for (const variant of ['johndoe@gmail.com', 'j.o.h.n.d.o.e+agent@gmail.com', 'JohnDoe@googlemail.com']) {
      const { status, body } = await attempt(t, variant);
      expect(status, variant).toBe(409);
      expect(body.error?.code).toBe('account_exists');
    }
    expect(t.mailer.messages.map((m) => m.to)).toEqual([
      'John.Doe@gmail.com',
      'johndoe@gmail.com',
      'j.o.h.n.d.o.e+agent@gmail.com',
      'JohnDoe@googlemail.com',
    ]);
    expect(await storedKeys(t)).toBe(1);
  });

  it('only N free grants per non-major domain per UTC day (major providers exempt); resets at 00:00 UTC', async () => {
    const t = await signupHarness({
      signup: { throttles: { domainGrants: [{ limit: 2, window: 'utc-day' }] } },
    });
    const credits = async (email: string) => (await t.complete(email)).credits;
    expect(await credits('u1@corp.example')).toBe(200);
    expect(await credits('u2@Corp.Example')).toBe(200);
    const third = await t.complete('u3@corp.example');
    expect(third.credits).toBe(0);
    expect(third.notes).toContain("its domain used up today's free grants");
    expect(await credits('u1@other.example')).toBe(200); // another domain has its own budget
    for (let i = 0; i < 4; i++) expect(await credits(`major${i}@gmail.com`)).toBe(200);
    t.clock.set('2026-03-01T23:59:59.999Z');
    expect(await credits('u4@corp.example')).toBe(0);
    t.clock.set('2026-03-02T00:00:00.000Z');
    expect(await credits('u5@corp.example')).toBe(200);
    expect(await credits('u6@corp.example')).toBe(200);
    expect(await credits('u7@corp.example')).toBe(0);
    console.log('domain grants (limit 2/day): corp.example day 1 → 200, 200, 0, 0; day 2 → 200, 200, 0');
  });

  it('a variant that gets no credits (grant key already granted) does not use up the domain budget', async () => {
    const t = await signupHarness({
      signup: { throttles: { domainGrants: [{ limit: 2, window: 'utc-day' }] } },
    });
    expect((await t.complete('a.b@corp.example')).credits).toBe(200);
    expect((await t.complete('ab@corp.example')).credits).toBe(0);
    expect((await t.complete('a.b.c+x@corp.example')).credits).toBe(200);
  });
});
