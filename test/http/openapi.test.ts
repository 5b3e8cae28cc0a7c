/**
 * GET /openapi.json (a valid OpenAPI 3.1 document listing every mounted route, with prices) and
 * GET /docs (offline HTML naming every path, without JavaScript too).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { DEFAULT_PRICES } from '../../src/core/pricing.ts';
import { expectJson, type Fixture, fixture } from '../helpers/http.ts';

type Doc = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        'x-credits'?: Record<string, number>;
        responses: Record<string, unknown>;
        parameters: { name: string; in: string }[];
      }
    >
  >;
};

/** Every route the Hono app serves, as `method path` with OpenAPI-style parameters. */
function mounted(f: Fixture): string[] {
  return f.ts.app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
    .sort();
}

function documented(doc: Doc): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`))
    .sort();
}

describe('GET /openapi.json', () => {
  test('is a valid OpenAPI 3.1 document, served without a key', async () => {
    const f = await fixture();
    const res = await f.call('/openapi.json');
    const doc = await expectJson<Doc>(res);
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toMatch(/^3\.1/);
    expect(res.headers.get('x-credits-to-deduct')).toBeNull();
  });

  test('lists every mounted route, and only those', async () => {
    const f = await fixture();
    const doc = await expectJson<Doc>(await f.call('/openapi.json'));
    expect(mounted(f).length).toBeGreaterThanOrEqual(25);
    expect(documented(doc)).toEqual(mounted(f));
  });

  test('prices, security and path parameters match the routes', async () => {
    const f = await fixture();
    const doc = await expectJson<Doc>(await f.call('/openapi.json'));
    expect(doc.paths['/v1/transcripts']?.post?.['x-credits']).toEqual({
      transcript: DEFAULT_PRICES.transcript,
    });
    expect(doc.paths['/v1/videos/{id}']?.get?.['x-credits']).toEqual({ video_fast: 1, video_full: 2 });
    expect(doc.paths['/v1/videos/{id}/basic-info']?.get?.['x-credits']).toEqual({ basic_info: 0 });
    expect(doc.paths['/healthz']?.get?.security).toEqual([]);
    expect(doc.paths['/v1/search']?.get?.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(Object.keys(doc.paths['/v1/transcripts']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '402', '403', '404', '429', '500', '502', '503', '504']),
    );
    expect(Object.keys(doc.paths['/v1/search/suggestions']?.get?.responses ?? {})).not.toContain('402');
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods))
        expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(names);
    }
  });

  test('configured prices and the public URL are reflected', async () => {
    const f = await fixture({ pricing: { transcript: 4 }, publicUrl: 'https://api.example.com/' });
    const doc = await expectJson<Doc>(await f.call('/openapi.json'));
    expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(doc.paths['/v1/transcripts']?.get?.['x-credits']).toEqual({ transcript: 4 });
  });
});

describe('GET /docs', () => {
  test('is offline HTML (same-origin scripts only, no external assets) that mentions every path', async () => {
    const f = await fixture();
    const res = await f.call('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).not.toMatch(/<iframe|<img|@import|url\(/i);
    // Scripts and links are relative to the page (the vendored UI; see test/http/docs.test.ts).
    for (const [, url] of html.matchAll(/\s(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi))
      expect(url).toMatch(/^(?!\/\/)(?![a-z]+:)|^data:,$|^http:\/\/localhost\//);
    for (const [, url] of html.matchAll(/href\s*=\s*["']?(https?:[^"'\s>]+)/gi))
      expect(url).toMatch(/^http:\/\/localhost\//);
    for (const route of mounted(f)) {
      const path = route.split(' ')[1]!;
      expect(html, path).toContain(`<code>${path}</code>`);
    }
  });

  test('documents the 2026 sort fallback and the duration mapping (decisions.md, Search)', async () => {
    const f = await fixture();
    const html = await (await f.call('/docs')).text();
    expect(html).toMatch(/upload date and by rating in 2026/);
    expect(html).toMatch(/short = under 3 minutes/);
  });
});
