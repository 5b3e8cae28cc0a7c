/**
 * A fake `fetch` that answers from the recorded YouTube exchanges (newpipe format): a request is
 * matched by method, host-independent path, and the body fields that matter (videoId, browseId,
 * params, continuation, query, url) and, for GETs, the query string's significant parameters.
 * Unmatched requests get a 404 and are listed in `misses`, so tests can assert nothing
 * unexpected was asked.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadRecording, type Recording, recordingsDir } from './recordings.ts';

/** What a request is matched on. */
export function signature(method: string, url: string, body: string | undefined): string {
  const u = new URL(url);
  let path = u.pathname;
  if (path === '/youtubei/v1/reel/reel_item_watch') path += `#${u.searchParams.get('id') ?? ''}`;
  const fields: string[] = [];
  if (body) {
    try {
      const json = JSON.parse(body) as Record<string, unknown>;
      const player = json.playerRequest as Record<string, unknown> | undefined;
      for (const key of ['videoId', 'browseId', 'params', 'continuation', 'query', 'url']) {
        const value = json[key] ?? player?.[key];
        if (typeof value === 'string') fields.push(`${key}=${decodeURIComponent(value)}`);
      }
      const client = (json.context as { client?: { clientName?: string } } | undefined)?.client?.clientName;
      if (client && (path.endsWith('/player') || path.endsWith('/visitor_id')))
        fields.push(`client=${client}`);
    } catch {
      fields.push('body=?');
    }
  }
  if (method === 'GET') {
    for (const key of ['q', 'channel_id', 'user', 'v', 'lang', 'kind']) {
      const value = u.searchParams.get(key);
      if (value !== null) fields.push(`${key}=${value}`);
    }
  }
  const fieldsMark = u.searchParams.has('$fields') ? ' $fields' : '';
  return `${method} ${path}${fieldsMark} ${fields.join('&')}`;
}

/** Every recording file under newpipe/, relative paths. */
export function allRecordings(): string[] {
  if (!recordingsDir) return [];
  const root = join(recordingsDir, 'newpipe');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.json')) out.push(relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}

/** A replaying fetch over the given recordings (default: all). */
export class ReplayFetch {
  readonly byKey = new Map<string, Recording>();
  /** Requests that matched nothing. */
  readonly misses: string[] = [];
  /** Every request, in order. */
  readonly log: { method: string; url: string; key: string }[] = [];
  /** Extra handlers tried first (e.g. generated timed text). */
  readonly handlers: ((url: URL, init: RequestInit) => Response | undefined)[] = [];

  constructor(files: readonly string[] = allRecordings()) {
    for (const file of files) {
      const rec = loadRecording(file);
      const key = signature(rec.request.method, rec.request.url, rec.request.body);
      if (!this.byKey.has(key)) this.byKey.set(key, rec);
    }
  }

  /** The fetch function. */
  readonly fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? init.body : undefined;
    const key = signature(method, input, body);
    this.log.push({ method, url: input, key });
    const url = new URL(input);
    for (const handler of this.handlers) {
      const res = handler(url, init);
      if (res) return res;
    }
    const rec = this.byKey.get(key);
    if (!rec) {
      this.misses.push(key);
      return new Response(
        JSON.stringify({ error: { code: 404, message: 'no recording', status: 'NOT_FOUND' } }),
        {
          status: 404,
          headers: { 'content-type': 'application/json' },
        },
      );
    }
    const headers = new Headers();
    for (const [name, values] of Object.entries(rec.response.headers)) {
      if (/^(content-encoding|content-length|transfer-encoding)$/i.test(name)) continue;
      for (const v of values) headers.append(name, v);
    }
    return new Response(rec.response.body, { status: rec.response.status, headers });
  };
}
