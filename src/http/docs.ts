/**
 * The human docs page at `/docs`: Scalar's interactive API reference (try-it-out included) over
 * `/openapi.json`, served from this app with no CDN, fonts or other outside request (see
 * `docs-ui/`). The page's URLs are relative, so it works under any mount prefix; it runs no inline
 * script, and its Content-Security-Policy allows only this origin (and the configured public
 * URL's, for try-it-out). Without JavaScript it reads as a plain-HTML reference (`<noscript>`).
 * @module
 */
import type { AppContext } from './context.ts';
import { CONFIG_ELEMENT_ID, type DocsPageConfig, INIT_PATH, SCALAR_PATH } from './docs-ui/assets.ts';
import { SCALAR_META } from './docs-ui/scalar-meta.generated.ts';
import { staticReference } from './docs-ui/static-reference.ts';

/** Scalar's options: everything that would reach another host (fonts, telemetry, AI, MCP) is off. */
const SCALAR_OPTIONS: Record<string, unknown> = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  mcp: { disabled: true },
  agent: { disabled: true },
  documentDownloadType: 'json',
  persistAuth: false,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  authentication: { preferredSecurityScheme: 'bearer' },
  metaData: { title: 'tubescribe API' },
};

/**
 * The base URL the OpenAPI document names as its server: the configured public URL, else the
 * request's base plus the prefix the app is mounted under, when the request's path shows one
 * (Hono `app.route('/api', …)` keeps the full path; `app.mount` and Express strip it, and there the
 * docs page falls back on its own location).
 */
export function mountedBaseUrl(
  c: AppContext,
  ownPath: string,
  baseUrl: string,
  publicUrl: string | undefined,
): string {
  if (publicUrl !== undefined) return publicUrl;
  const path = c.req.path;
  const prefix = path.endsWith(ownPath) ? path.slice(0, path.length - ownPath.length) : '';
  return prefix === '' || baseUrl.endsWith(prefix) ? baseUrl : `${baseUrl}${prefix}`;
}

/** Page-relative form of an app path (`/docs/scalar.js` → `docs/scalar.js`): the page is `/docs`. */
const relative = (path: string): string => path.slice(1);

/** The JSON text safe inside a `<script>` element. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Renders the docs page over `doc` (the OpenAPI document, whose first server the no-script text's
 * curl examples call); `publicUrl` is the configured public base URL, if any.
 */
export function docsPage(doc: Record<string, unknown>, publicUrl: string | undefined): string {
  const base = (doc.servers as { url: string }[] | undefined)?.[0]?.url ?? '';
  const config: DocsPageConfig = {
    url: 'openapi.json',
    sameOriginServer: publicUrl === undefined,
    scalar: SCALAR_OPTIONS,
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>tubescribe API</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript>
${staticReference(doc, base)}
</noscript>
<div id="app"></div>
<script type="application/json" id="${CONFIG_ELEMENT_ID}">${scriptJson(config)}</script>
<script src="${relative(SCALAR_PATH)}?v=${SCALAR_META.hash}"></script>
<script src="${relative(INIT_PATH)}"></script>
</body>
</html>
`;
}

/** The docs page's headers: its Content-Security-Policy, and no caching (the page is tiny). */
export function docsHeaders(publicUrl: string | undefined): Record<string, string> {
  const connect = ["'self'"];
  if (publicUrl !== undefined) connect.push(new URL(publicUrl).origin);
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    // Scalar styles its components with inline styles and <style> elements.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}
