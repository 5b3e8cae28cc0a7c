/**
 * The docs page's two scripts: `/docs/scalar.js`, Scalar's API reference (vendored at build time
 * by `scripts/vendor-docs-ui.mjs`, kept gzip-compressed, loaded with a dynamic `import()` only when
 * a browser first asks for it, so start-up never parses it), and `/docs/init.js`, which starts it
 * with the configuration the server rendered into the page (a JSON `<script>` element, so the page
 * runs no inline script and its CSP can say `script-src 'self'`). Without a configured public URL,
 * try-it-out targets the base the page was loaded from: that base carries any mount prefix (Hono
 * `route`/`mount`, Express `app.use`), which the server itself may not see. No key, no credits,
 * same origin (no CDN). Both are routes of the document, answered by their own handlers (bytes,
 * 304s).
 * @module
 */
import type { Handler } from 'hono';
import { ApiError } from '../../errors.ts';
import type { AppContext, AppEnv } from '../context.ts';
import type { Route } from '../route.ts';
import { SCALAR_META } from './scalar-meta.generated.ts';

/** The path of Scalar's bundle, relative to the app's root. */
export const SCALAR_PATH = '/docs/scalar.js';
/** The path of the script that starts Scalar on the page. */
export const INIT_PATH = '/docs/init.js';

/** The id of the page's JSON configuration element. */
export const CONFIG_ELEMENT_ID = 'tubescribe-docs-config';

/** What the server tells the page (beside Scalar's own options). */
export interface DocsPageConfig {
  /** The OpenAPI document's URL, relative to the page. */
  url: string;
  /** Whether try-it-out targets the page's own base (no public URL configured). */
  sameOriginServer: boolean;
  /** Scalar's options, passed through. */
  scalar: Record<string, unknown>;
}

/** The browser code of `/docs/init.js` (plain ES2020, no dependencies but `window.Scalar`). */
export const INIT_SCRIPT: string = `'use strict';
(function () {
  var element = document.getElementById(${JSON.stringify(CONFIG_ELEMENT_ID)});
  var page = JSON.parse(element.textContent);
  var config = Object.assign({}, page.scalar, { url: new URL(page.url, location.href).href });
  if (page.sameOriginServer) {
    var base = new URL('.', location.href).href.replace(/\\/$/, '');
    config.servers = [{ url: base, description: 'This server' }];
  }
  window.Scalar.createApiReference('#app', config);
})();
`;

const ETAG = `"${SCALAR_META.hash}"`;
const JS = 'text/javascript; charset=utf-8';

/** The bundle's gzip bytes, decoded once from the lazily imported module. */
let gzipBytes: Promise<Uint8Array<ArrayBuffer>> | undefined;

function loadGzip(): Promise<Uint8Array<ArrayBuffer>> {
  gzipBytes ??= import('./scalar-bundle.generated.ts').then(
    ({ SCALAR_GZIP_BASE64 }) => {
      const binary = atob(SCALAR_GZIP_BASE64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    },
    (error: unknown) => {
      gzipBytes = undefined;
      throw new ApiError('internal_error', 'The docs UI bundle is missing from this build.', {
        cause: error,
      });
    },
  );
  return gzipBytes;
}

/** Whether the request's `Accept-Encoding` takes gzip (`gzip` or `*`, with a quality above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** Whether the client's cached copy (`If-None-Match`) is this bundle. */
function fresh(c: AppContext): boolean {
  const tags = c.req.header('if-none-match');
  return (tags ?? '').split(',').some((t) => t.trim().replace(/^W\//, '') === ETAG);
}

/** Answers `/docs/scalar.js`: gzip as is when accepted (every browser), else decompressed. */
async function scalarScript(c: AppContext): Promise<Response> {
  // A versioned URL (the page's `?v=<hash>`) never changes; a bare one is revalidated.
  const versioned = new URL(c.req.url).searchParams.get('v') === SCALAR_META.hash;
  const headers: Record<string, string> = {
    'Content-Type': JS,
    'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    ETag: ETAG,
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  if (fresh(c)) return c.body(null, 304, headers);
  const gzip = await loadGzip();
  if (acceptsGzip(c.req.header('accept-encoding')))
    return c.body(gzip, 200, { ...headers, 'Content-Encoding': 'gzip' });
  const plain = new Blob([gzip]).stream().pipeThrough(new DecompressionStream('gzip'));
  return c.body(plain, 200, headers);
}

/** A script route: listed in the document like every route, answered by `handler` directly. */
function scriptRoute(path: string, summary: string, description: string, handler: Handler<AppEnv>): Route {
  return {
    meta: {
      method: 'get',
      path,
      tags: ['System'],
      summary,
      description,
      auth: 'none',
      response: { status: 200, description: 'JavaScript', contentTypes: ['text/javascript'] },
      errors: [],
    },
    mount(app) {
      app.get(path, handler);
    },
  };
}

/** The docs page's two script routes. */
export function docsScriptRoutes(): Route[] {
  return [
    scriptRoute(
      SCALAR_PATH,
      "The docs page's API reference UI (no key)",
      "Scalar's API reference (`@scalar/api-reference`, MIT), vendored into tubescribe so that " +
        '`/docs` needs no CDN. gzip-encoded when the client accepts it; `?v=<hash>` (as the page ' +
        'asks for it) is cached for a year, and `If-None-Match` with its ETag answers 304.',
      scalarScript,
    ),
    scriptRoute(
      INIT_PATH,
      "The docs page's start-up script (no key)",
      'Starts the API reference with the configuration the docs page carries.',
      (c) =>
        c.body(INIT_SCRIPT, 200, {
          'Content-Type': JS,
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
        }),
    ),
  ];
}
