/**
 * The docs page and what it points at, through `app.request`: the page's relative URLs, CSP and
 * no-script text, Scalar's bundle (gzip, ETag, 304, caching, lazily loaded), and the request-body
 * examples, each of which the app must accept. Mount prefixes and the public URL:
 * docs-mount.test.ts; the page in a browser: test/browser/docs.test.ts.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../src/http/docs-ui/assets.ts';
import { SCALAR_META } from '../../src/http/docs-ui/scalar-meta.generated.ts';
import { REQUEST_EXAMPLES } from '../../src/http/request-examples.ts';
import { ADMIN } from '../helpers/app.ts';
import { type Doc, docsApp, pageConfig } from '../helpers/docs.ts';

describe('GET /docs', () => {
  it('is a small page loading the vendored Scalar with relative URLs and a strict CSP', async () => {
    const { call } = await docsApp();
    const res = await call('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).toContain(`<script src="docs/scalar.js?v=${SCALAR_META.hash}"></script>`);
    expect(html).toContain('<script src="docs/init.js"></script>');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<script>/);
    const config = pageConfig(html);
    expect(config).toMatchObject({ url: 'openapi.json', sameOriginServer: true });
    expect(config.scalar).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
    });
  });

  it('reads without JavaScript: every operation with a curl example and its correct body', async () => {
    const { call } = await docsApp({ publicUrl: 'https://api.example.org' });
    const html = await (await call('/docs')).text();
    const text = /<noscript>(.*)<\/noscript>/s.exec(html)![1]!;
    const doc = (await (await call('/openapi.json')).json()) as Doc;
    for (const [path, methods] of Object.entries(doc.paths))
      for (const method of Object.keys(methods))
        expect(text).toContain(`${method.toUpperCase()} <code>${path}</code>`);
    const curl = (route: string) => {
      const [method, path] = route.split(' ') as [string, string];
      const section = text
        .split('<section>')
        .find((s) => s.startsWith(`<h3>${method.toUpperCase()} <code>${path}</code>`));
      return (section ?? '').replaceAll('&#39;', "'").replaceAll('&quot;', '"');
    };
    for (const [route, examples] of Object.entries(REQUEST_EXAMPLES)) {
      const first = Object.values(examples)[0]!.value;
      expect(curl(route), route).toContain(`-d '${JSON.stringify(first)}'`);
    }
    expect(curl('post /api/agent/signup')).toContain(
      "curl -s -X POST 'https://api.example.org/api/agent/signup'",
    );
    expect(curl('get /v1/transcripts')).toContain("'https://api.example.org/v1/transcripts?video_id=");
    expect(text).not.toContain('{"amount":100}');
  });
});

describe('GET /docs/scalar.js and /docs/init.js', () => {
  it('serves the bundle gzip-encoded, immutable under its versioned URL', async () => {
    const { ts } = await docsApp();
    const res = await ts.app.request(`/docs/scalar.js?v=${SCALAR_META.hash}`, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBe(SCALAR_META.gzipBytes);
    const text = gunzipSync(bytes).toString('utf8');
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text).toMatch(/^\/\*! @scalar\/api-reference \S+ \| MIT/);
    expect(text).toContain('createApiReference');
    expect(text).not.toContain('sourceMappingURL');
  });

  it('decompresses for a client without gzip, and answers 304 to its ETag', async () => {
    const { ts } = await docsApp();
    const plain = await ts.app.request('/docs/scalar.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, no-cache');
    expect((await plain.arrayBuffer()).byteLength).toBe(SCALAR_META.bytes);
    const etag = plain.headers.get('etag')!;
    expect(etag).toBe(`"${SCALAR_META.hash}"`);
    const again = await ts.app.request('/docs/scalar.js', { headers: { 'if-none-match': `W/${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves the init script; the document lists both scripts as free System routes', async () => {
    const { call } = await docsApp();
    const init = await call('/docs/init.js');
    expect(init.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await init.text()).toContain('Scalar.createApiReference');
    const doc = (await (await call('/openapi.json')).json()) as Doc;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/docs'))).toEqual([
      '/docs',
      '/docs/scalar.js',
      '/docs/init.js',
    ]);
    expect(doc.paths['/docs/scalar.js']?.get).toMatchObject({ tags: ['System'], security: [] });
  });

  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['GZIP', true],
    ['gzip;q=0', false],
    ['gzip;q=0.0, br', false],
    ['br', false],
    ['identity', false],
    ['', false],
    [undefined, false],
  ])('Accept-Encoding %j takes gzip: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('request-body examples', () => {
  it('every route with a body has examples in the document, and only those routes', async () => {
    const { call } = await docsApp();
    const doc = (await (await call('/openapi.json')).json()) as Doc;
    const withBody: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const body = op.requestBody as { content: Record<string, { examples?: unknown }> } | undefined;
        if (!body) continue;
        withBody.push(`${method} ${path}`);
        expect(body.content['application/json']?.examples, `${method} ${path}`).toEqual(
          REQUEST_EXAMPLES[`${method} ${path}`],
        );
      }
    }
    expect(withBody.sort()).toEqual(Object.keys(REQUEST_EXAMPLES).sort());
  });

  const cases = Object.entries(REQUEST_EXAMPLES).flatMap(([route, examples]) =>
    Object.entries(examples).map(([name, example]) => [route, name, example.value] as const),
  );
  it.each(cases)('%s (%s) passes the route validation', async (route, _name, value) => {
    const t = await docsApp({ publicUrl: 'https://api.example.org' });
    const { api_key, account_id } = await t.key(10_000);
    const [method, template] = route.split(' ') as [string, string];
    const path = template.replace('{account_id}', account_id);
    const res = await t.call(path, {
      method: method.toUpperCase(),
      key: path.startsWith('/admin') ? ADMIN : api_key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(value),
    });
    const answer = (await res.json()) as { error?: { code: string; message: string } };
    // Anything but a refusal of the body's shape: the example is a body the route takes.
    expect(['invalid_request', 'invalid_parameter', 'invalid_json', 'invalid_video_id']).not.toContain(
      answer.error?.code,
    );
    expect(res.status, JSON.stringify(answer)).toBeLessThan(500);
  });
});
