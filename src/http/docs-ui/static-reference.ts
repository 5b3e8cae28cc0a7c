/**
 * The docs page's text for readers without JavaScript (an agent fetching `/docs` as text, curl, a
 * text browser): every operation of the OpenAPI document with its parameters, cost and a curl
 * example whose body is the operation's first request example. It sits in the page's `<noscript>`
 * element, so browsers that run Scalar never render it.
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

/** The first example of a parameter or schema, if it declares one. */
function exampleOf(schema: Json | undefined): string | undefined {
  const examples = schema?.examples;
  return Array.isArray(examples) && examples.length > 0 ? String(examples[0]) : undefined;
}

/** The first request-body example of an operation. */
function bodyExample(operation: Json): unknown {
  const content = (operation.requestBody as { content?: Record<string, Json> } | undefined)?.content;
  const examples = content?.['application/json']?.examples as Record<string, { value: unknown }> | undefined;
  return examples ? Object.values(examples)[0]?.value : undefined;
}

/** A curl command calling `operation` on `base`. */
function curl(base: string, method: string, path: string, operation: Json): string {
  const params = (operation.parameters as Json[] | undefined) ?? [];
  const value = (name: string) => {
    const param = params.find((p) => p.name === name);
    return exampleOf(param?.schema as Json | undefined) ?? name;
  };
  let url = base + path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(value(name)));
  const required = params.filter((p) => p.in === 'query' && p.required === true).map((p) => String(p.name));
  if (required.length > 0) url += `?${required.map((n) => `${n}=${encodeURIComponent(value(n))}`).join('&')}`;
  const lines = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} '${url}'`];
  const security = operation.security as unknown[] | undefined;
  if (!security || security.length > 0) {
    const secret = path.startsWith('/admin') ? '$TUBESCRIBE_ADMIN_TOKEN' : '$TUBESCRIBE_KEY';
    lines.push(`  -H "Authorization: Bearer ${secret}"`);
  }
  const body = bodyExample(operation);
  if (body !== undefined) lines.push(`  -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`);
  return lines.join(' \\\n');
}

function parameterItem(p: Json): string {
  const schema = (p.schema ?? {}) as Json;
  const values = Array.isArray(schema.enum) ? ` — ${(schema.enum as string[]).map(esc).join(', ')}` : '';
  const def = schema.default === undefined ? '' : ` (default ${esc(String(schema.default))})`;
  const what = p.description ? ` — ${prose(String(p.description))}` : '';
  return `<li><code>${esc(String(p.name))}</code> <small>${esc(String(p.in))}${p.required ? ', required' : ''}</small>${def}${values}${what}</li>`;
}

/** The operations of `doc` as HTML sections grouped by tag, with curl examples against `base`. */
export function staticReference(doc: Json, base: string): string {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = ((operation.tags as string[] | undefined) ?? ['Other'])[0] ?? 'Other';
      const params = ((operation.parameters as Json[] | undefined) ?? []).map(parameterItem).join('');
      const credits = operation['x-credits'] as Record<string, number> | undefined;
      const cost = credits
        ? `<p>Cost: ${Object.entries(credits)
            .map(([op, n]) => `${esc(op)} ${n} credit${n === 1 ? '' : 's'}`)
            .join(', ')}</p>`
        : '';
      const described =
        operation.description && operation.description !== operation.summary
          ? `<p>${prose(String(operation.description))}</p>`
          : '';
      const section = `<section><h3>${method.toUpperCase()} <code>${esc(path)}</code></h3>
<p>${prose(String(operation.summary ?? ''))}</p>${described}${cost}
${params ? `<ul>${params}</ul>` : ''}<pre>${esc(curl(base, method, path, operation))}</pre></section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), section]);
    }
  }
  const info = (doc.info ?? {}) as Json;
  return `<h1>tubescribe API</h1>
<p>${prose(String(info.description ?? ''))} Authenticate with <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key</code>. Errors use the envelope <code>{"error":{"code","message","retryable"}}</code>. The machine-readable contract is at <a href="openapi.json"><code>openapi.json</code></a>.</p>
${[...byTag.entries()].map(([tag, sections]) => `<h2>${esc(tag)}</h2>\n${sections.join('\n')}`).join('\n')}`;
}
