/**
 * The human docs page at `/docs`: rendered on the server from the OpenAPI document, with inline
 * styles and no scripts or external assets, so it works offline.
 * @module
 */

type Json = Record<string, unknown>;

const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Inline code spans for `backticks`. */
const prose = (s: string): string => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');

function example(base: string, method: string, path: string, operation: Json): string {
  const params = (operation.parameters as Json[] | undefined) ?? [];
  const sample: Record<string, string> = {
    id: 'dQw4w9WgXcQ',
    videoId: 'dQw4w9WgXcQ',
    account_id: 'acc_…',
    key_id: 'key_…',
  };
  if (path.startsWith('/v1/playlists')) sample.id = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';
  if (path.startsWith('/v1/channels')) sample.id = '@kurzgesagt';
  let url = base + path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(sample[name] ?? name));
  const required = params.filter((p) => p.in === 'query' && p.required === true).map((p) => String(p.name));
  if (required.length > 0)
    url += `?${required.map((n) => `${n}=${n === 'q' ? 'test' : 'dQw4w9WgXcQ'}`).join('&')}`;
  const auth = path.startsWith('/admin') ? '$TUBESCRIBE_ADMIN_TOKEN' : '$TUBESCRIBE_KEY';
  const security = operation.security as unknown[] | undefined;
  const lines = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} '${url}'`];
  if (!security || security.length > 0) lines.push(`  -H "Authorization: Bearer ${auth}"`);
  if (operation.requestBody) {
    const body =
      path === '/v1/transcripts'
        ? '{"video_id":"dQw4w9WgXcQ","format":"text"}'
        : path === '/admin/keys'
          ? '{"credits":100}'
          : '{"amount":100}';
    lines.push(`  -H 'Content-Type: application/json' -d '${body}'`);
  }
  return lines.join(' \\\n');
}

/** Renders the docs page for `doc` (an OpenAPI document) served at `base`. */
export function docsPage(doc: Json, base: string): string {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = ((operation.tags as string[] | undefined) ?? ['Other'])[0] ?? 'Other';
      const params = ((operation.parameters as Json[] | undefined) ?? [])
        .map((p) => {
          const schema = (p.schema ?? {}) as Json;
          const values = Array.isArray(schema.enum)
            ? ` — ${(schema.enum as string[]).map(esc).join(', ')}`
            : '';
          const def = schema.default === undefined ? '' : ` (default ${esc(String(schema.default))})`;
          return `<li><code>${esc(String(p.name))}</code> <small>${esc(String(p.in))}${p.required ? ', required' : ''}</small>${def}${values}${p.description ? ` — ${prose(String(p.description))}` : ''}</li>`;
        })
        .join('');
      const credits = operation['x-credits'] as Record<string, number> | undefined;
      const cost = credits
        ? `<p class="cost">Cost: ${Object.entries(credits)
            .map(([op, n]) => `${esc(op)} ${n} credit${n === 1 ? '' : 's'}`)
            .join(', ')}</p>`
        : '';
      const section = `<section><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p>${prose(String(operation.summary ?? ''))}</p>${operation.description ? `<p>${prose(String(operation.description))}</p>` : ''}${cost}
${params ? `<ul>${params}</ul>` : ''}<pre>${esc(example(base, method, path, operation))}</pre></section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), section]);
    }
  }
  const info = doc.info as Json;
  const toc = [...byTag.keys()].map((t) => `<a href="#${esc(t)}">${esc(t)}</a>`).join(' · ');
  const body = [...byTag.entries()]
    .map(([tag, sections]) => `<h2 id="${esc(tag)}">${esc(tag)}</h2>${sections.join('\n')}`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>tubescribe API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code,pre{font:13px ui-monospace,monospace}pre{background:#f4f4f4;padding:.75rem;overflow:auto;border-radius:4px}
h2{border-bottom:1px solid #ddd;margin-top:2.5rem}section{margin:1.5rem 0}.m{font-size:12px;padding:2px 6px;border-radius:3px;color:#fff}
.get{background:#2b7}.post{background:#27b}.delete{background:#c33}.cost{color:#555}small{color:#666}
</style></head><body>
<h1>tubescribe API</h1>
<p>${prose(String(info.description ?? ''))} Authenticate with <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key</code>. Errors use the envelope <code>{"error":{"code","message","retryable"}}</code>. The machine-readable contract is at <a href="${esc(base)}/openapi.json"><code>/openapi.json</code></a>.</p>
<nav>${toc}</nav>
${body}
</body></html>`;
}
