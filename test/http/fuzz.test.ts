/**
 * Fuzz: random methods, paths (the route table with random segments, percent-encodings, unicode,
 * very long ones), queries, key headers and bodies (JSON, invalid JSON, huge) thrown at the app
 * with a valid key on a funded account and a healthy upstream.
 *
 * Laws: never a 5xx; every non-2xx answer is the error envelope; the balance only moves on a 200,
 * and then by exactly X-Credits-To-Deduct; no reservation is left open.
 *
 * Runs: FUZZ_RUNS (default 5,000) with the seed FUZZ_SEED (default fixed, so CI is deterministic);
 * the count is printed.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { CHANNEL, PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import { ADMIN } from '../helpers/app.ts';
import { fixture, isEnvelope, WELL_FORMED_UNKNOWN_KEY } from '../helpers/http.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_301);
const HUGE = `{"video_id":"${VIDEO}","pad":"${'x'.repeat(1024 * 1024 + 16)}"}`;

const ascii = (min: number, max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: min,
    maxLength: max,
  });

/** A path segment: valid ids, near misses, percent-encodings (valid and broken), unicode, long. */
function segment(decoys: { account: string; key: string }): fc.Arbitrary<string> {
  return fc.oneof(
    {
      arbitrary: fc.constantFrom(VIDEO, PLAYLIST, CHANNEL, '@RickAstleyYT', decoys.account, decoys.key),
      weight: 8,
    },
    fc.constantFrom(
      `RD${VIDEO}`,
      'acc_nobody',
      '',
      '.',
      '..',
      '%',
      '%zz',
      '%E0%A4%A',
      '%00',
      '%2F',
      '%C0%AF',
      '%FF%FE',
      encodeURIComponent(`https://youtu.be/${VIDEO}`),
      encodeURIComponent(`https://www.youtube.com/playlist?list=${PLAYLIST}`),
      encodeURIComponent('https://www.youtube.com/@RickAstleyYT'),
    ),
    fc.string({ maxLength: 30 }).map(encodeURIComponent),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc
      .string({ unit: 'binary', maxLength: 20 })
      .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, 'x'))),
    fc.integer({ min: 100, max: 6000 }).map((n) => 'a'.repeat(n)),
  );
}

const methodArb = fc.oneof(
  { arbitrary: fc.constantFrom('GET', 'POST', 'DELETE'), weight: 6 },
  { arbitrary: fc.constantFrom('PUT', 'PATCH', 'HEAD', 'OPTIONS'), weight: 2 },
  {
    arbitrary: fc.stringMatching(/^[A-Z]{1,7}$/).filter((m) => !['CONNECT', 'TRACE', 'TRACK'].includes(m)),
    weight: 1,
  },
);

/** A method and a path: mostly a route of the table with its own method, else anything. */
function targetArb(routes: { method: string; template: string }[], decoys: { account: string; key: string }) {
  const fill = (template: string, segments: string[], slash: boolean) => {
    let i = 0;
    const path = template.replace(/\{\w+\}/g, () => segments[i++] ?? '');
    return slash ? `${path}/` : path;
  };
  const segments = fc.array(segment(decoys), { minLength: 3, maxLength: 3 });
  const slash = fc.integer({ min: 0, max: 9 }).map((n) => n === 0);
  const own = fc
    .tuple(fc.constantFrom(...routes), segments, slash)
    .map(([r, parts, s]) => [r.method, fill(r.template, parts, s)] as const);
  const other = fc
    .tuple(methodArb, fc.constantFrom(...routes), segments, slash)
    .map(([m, r, parts, s]) => [m, fill(r.template, parts, s)] as const);
  const random = fc
    .tuple(methodArb, fc.array(segment(decoys), { minLength: 0, maxLength: 5 }))
    .map(([m, parts]) => [m, `/${parts.join('/')}`] as const);
  return fc.oneof(
    { arbitrary: own, weight: 6 },
    { arbitrary: other, weight: 2 },
    { arbitrary: random, weight: 1 },
  );
}

const PARAMS = [
  'video_id',
  'format',
  'languages',
  'word_level',
  'track_policy',
  'q',
  'limit',
  'type',
  'sort_by',
  'cursor',
  'continuation',
  'mode',
  'gl',
  'hl',
  'country',
  'lang',
  'duration',
  'upload_date',
];
const VALUES = [
  VIDEO,
  'segments',
  'words',
  'markdown',
  'srt',
  'vtt',
  'json3',
  'text',
  'json',
  'en,de',
  'auto',
  '*',
  'true',
  '0',
  'asr_only',
  'rick',
  '1',
  '50',
  '51',
  '-1',
  'video',
  'date',
  'full',
  'us',
  'en',
  'short',
  'hour',
  '',
];

const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 8 })),
      fc.oneof(
        fc.constantFrom(...VALUES),
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 10 }),
      ),
      fc.boolean(),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => {
    if (pairs.length === 0) return '';
    const encode = (s: string, raw: boolean) =>
      raw ? s.replace(/[#\s]/g, '') : encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, 'x'));
    return `?${pairs.map(([k, v, raw]) => `${encode(k, raw)}=${encode(v, raw)}`).join('&')}`;
  });

function headersArb(valid: string): fc.Arbitrary<Record<string, string>> {
  const key = fc.oneof(
    { arbitrary: fc.constant(valid), weight: 12 },
    { arbitrary: fc.constantFrom(WELL_FORMED_UNKNOWN_KEY, ADMIN, 'tsk_short', `${valid}x`), weight: 1 },
    { arbitrary: ascii(0, 60), weight: 1 },
  );
  return fc.record(
    {
      authorization: fc.oneof(
        key.map((k) => `Bearer ${k}`),
        fc.constant(`Basic ${valid}`),
        ascii(0, 40),
      ),
      'x-api-key': key,
      'content-type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ),
      'x-forwarded-for': fc.oneof(fc.ipV4(), fc.ipV6(), ascii(0, 30)),
      'idempotency-key': ascii(0, 250),
      'cache-control': fc.constant('no-cache'),
    },
    { requiredKeys: [] },
  );
}

const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: fc.json({ maxDepth: 3 }), weight: 3 },
  {
    arbitrary: fc
      .record(
        {
          video_id: fc.oneof(fc.constant(VIDEO), fc.string(), fc.integer()),
          format: fc.constantFrom('segments', 'words', 'markdown', 'srt', 'vtt', 'json3', 'pdf'),
          languages: fc.oneof(
            fc.array(fc.constantFrom('en', 'de', 'auto', '*', 'xx-YY', ''), { maxLength: 3 }),
            fc.string(),
          ),
          word_level: fc.oneof(fc.boolean(), fc.string()),
          track_policy: fc.constantFrom('manual_first', 'asr_only', 'nope'),
          credits: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double()),
          amount: fc.integer({ min: -5, max: 5 }),
          pack: fc.constantFrom('small', 'huge'),
          plan: fc.constantFrom('free', 'paid', 'gold'),
          scopes: fc.array(fc.constantFrom('data:read', 'admin', 'root')),
          email: fc.oneof(fc.emailAddress(), fc.string()),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
    weight: 4,
  },
  {
    arbitrary: fc.string({ maxLength: 50 }).filter((s) => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    }),
    weight: 2,
  },
  { arbitrary: fc.constant(HUGE), weight: 1 },
);

test(`fuzz: ${RUNS} random requests never 5xx, always the envelope, credits only on 200`, {
  timeout: 60_000,
}, async () => {
  let lastError = '';
  const logger = {
    log: (level: string, message: string, data?: Record<string, unknown>) => {
      if (level === 'error') lastError = `${message} ${JSON.stringify(data)}`.slice(0, 600);
    },
  };
  const f = await fixture(
    { logger, trustProxy: true, limits: { authFailures: { limit: 1e9, windowSeconds: 60 } } },
    1_000_000,
  );
  const decoy = await f.key(5);
  const rt = f.ts;
  const routes = f.ts.app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => ({ method: r.method, template: r.path.replace(/:(\w+)/g, '{$1}') }));
  for (const template of ['/v1/{x}', '/admin/{x}/{y}', '/v1/transcripts/{a}/{b}/{c}'])
    routes.push({ method: 'GET', template });
  const statuses = new Map<number, number>();
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(
      targetArb(routes, { account: decoy.account_id, key: decoy.key_id }),
      queryArb,
      headersArb(f.apiKey),
      bodyArb,
      async ([method, path], query, headers, body) => {
        runs++;
        lastError = '';
        const before = await rt.ports.ledger.credits(f.accountId);
        const init: RequestInit = { method, headers };
        if (body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = body;
        const res = await f.ts.app.request(`${path}${query}`, init);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        const after = await rt.ports.ledger.credits(f.accountId);
        const label = `${method} ${path.slice(0, 200)}${query.slice(0, 200)} → ${res.status} ${text.slice(0, 300)} ${lastError}`;
        expect(res.status, label).toBeLessThan(500);
        if ((res.status < 200 || res.status > 299) && method !== 'HEAD')
          expect(isEnvelope(JSON.parse(text)), label).toBe(true);
        const charged = res.headers.get('x-credits-to-deduct');
        const spent = before.balance - after.balance;
        expect(spent, label).toBe(res.status === 200 && charged !== null ? Number(charged) : 0);
        expect(after.reserved, label).toBe(0);
      },
    ),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  expect(runs).toBe(RUNS);
  console.log(
    `fuzz: ${runs} runs (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
});
