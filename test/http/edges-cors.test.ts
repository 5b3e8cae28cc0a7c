/**
 * CORS (TUBESCRIBE_CORS_ORIGINS / `corsOrigins`): off by default; with origins configured,
 * preflights from them are answered and answers to them carry the headers; any other origin gets
 * no CORS header.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.ts';
import { loadConfig } from '../../src/cli/config.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE } from '../../src/http/cors.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { testApp } from '../helpers/app.ts';

const APP = 'https://app.example.com';
const preflight = (origin: string, method = 'GET') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization, x-request-id',
  },
});
const corsHeaders = (res: Response) =>
  [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS off (the default)', () => {
  it('no CORS header on answers, and a preflight is not answered', async () => {
    const t = await testApp();
    const res = await t.call('/healthz', { headers: { origin: APP } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    const pre = await t.call('/v1/account', preflight(APP));
    expect(pre.status).toBe(405);
    expect(corsHeaders(pre)).toEqual([]);
  });
});

describe('CORS with a list of origins', () => {
  it('answers a preflight from a listed origin', async () => {
    const t = await testApp({ corsOrigins: [APP, 'http://localhost:3000'] });
    const res = await t.call(`/v1/transcripts?video_id=${VIDEO}`, preflight(APP));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    const allowed = res.headers.get('access-control-allow-headers')?.split(', ');
    expect(allowed).toEqual([...CORS_ALLOW_HEADERS]);
    expect(allowed).toEqual(
      expect.arrayContaining([
        'Authorization',
        'X-API-Key',
        'Content-Type',
        'Idempotency-Key',
        'X-Request-Id',
      ]),
    );
    expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE));
    expect(res.headers.get('vary')).toContain('Origin');
    expect(t.upstream.calls).toEqual({});
  });

  it('sets the headers on answers to a listed origin, errors included', async () => {
    const t = await testApp({ corsOrigins: [APP] });
    const { api_key } = await t.key(10);
    for (const res of [
      await t.call(`/v1/videos/${VIDEO}`, { key: api_key, headers: { origin: APP } }),
      await t.call('/v1/account', { headers: { origin: APP } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      const exposed = res.headers.get('access-control-expose-headers')?.split(', ');
      expect(exposed).toEqual([...CORS_EXPOSE_HEADERS]);
      expect(exposed).toEqual(
        expect.arrayContaining([
          'X-Request-Id',
          'X-RateLimit-Remaining',
          'X-Credits-To-Deduct',
          'Retry-After',
          'Location',
        ]),
      );
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('puts each CORS header on a route’s answer once, with or without an Origin', async () => {
    const t = await testApp({ corsOrigins: [APP] });
    const { api_key } = await t.key(10);
    const url = `/v1/transcripts?video_id=${VIDEO}&format=text`;
    for (const origin of [APP, undefined]) {
      for (let i = 0; i < 2; i++) {
        const res = await t.call(url, { key: api_key, headers: origin ? { origin } : {} });
        expect(res.status).toBe(200);
        expect(res.headers.get('vary')).toBe('Origin');
        expect(res.headers.get('access-control-allow-origin')).toBe(origin ?? null);
        expect(res.headers.get('x-request-id')).not.toBeNull();
      }
    }
  });

  it('gives another origin no CORS header (preflight refused, answers bare but Vary: Origin)', async () => {
    const t = await testApp({ corsOrigins: [APP] });
    const pre = await t.call('/v1/account', preflight('https://evil.example'));
    expect(pre.status).not.toBe(204);
    expect(corsHeaders(pre)).toEqual([]);
    const res = await t.call('/healthz', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    expect(res.headers.get('vary')).toContain('Origin');
    // A prefix or suffix of a listed origin is another origin.
    const near = await t.call('/healthz', { headers: { origin: `${APP}.evil.example` } });
    expect(corsHeaders(near)).toEqual([]);
  });
});

describe('CORS with *', () => {
  it('allows any origin with *', async () => {
    const t = await testApp({ corsOrigins: '*' });
    const pre = await t.call('/api/agent/signup', preflight('https://anywhere.example', 'POST'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const res = await t.call('/healthz', { headers: { origin: 'https://anywhere.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });
});

describe('TUBESCRIBE_CORS_ORIGINS', () => {
  const load = (env: Record<string, string>, argv: string[] = []) =>
    loadConfig(parseArgs(['serve', ...argv]), { TUBESCRIBE_STORAGE: 'memory', ...env });

  it.each([
    [{}, []],
    [{ TUBESCRIBE_CORS_ORIGINS: '' }, []],
    [{ TUBESCRIBE_CORS_ORIGINS: '*' }, '*'],
    [
      { TUBESCRIBE_CORS_ORIGINS: ' https://a.example , http://localhost:3000/ ' },
      ['https://a.example', 'http://localhost:3000'],
    ],
  ] as const)('%j → %j', (env, expected) => {
    expect(load(env).corsOrigins).toEqual(expected);
  });

  it('the flag overrides the variable', () => {
    expect(
      load({ TUBESCRIBE_CORS_ORIGINS: '*' }, ['--cors-origins', 'https://b.example']).corsOrigins,
    ).toEqual(['https://b.example']);
  });

  it.each(['app.example.com', 'https://a.example/path', 'https://a.example, *'])('refuses %s', (value) => {
    expect(() => load({ TUBESCRIBE_CORS_ORIGINS: value })).toThrow(/TUBESCRIBE_CORS_ORIGINS/);
  });
});
