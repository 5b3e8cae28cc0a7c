/**
 * What the YouTube transport may reach and read: the hosts a request may go to (YouTube and
 * Google hosts over https, or the configured origin), and response bodies read incrementally up
 * to a cap. Caption URLs come out of YouTube's answers, so they are checked here, in the request
 * path, before anything is sent.
 * @module
 */
import { ApiError } from '../../errors.ts';
import type { UpstreamAnswer } from '../../ports/fetch.ts';

/** The default cap on an upstream body: 16 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 16 * 1024 * 1024;

const EXACT = new Set(['youtube.com', 'youtubei.googleapis.com']);
const SUFFIXES = ['.youtube.com', '.googlevideo.com', '.google.com'];

/**
 * Whether the transport may send a request to `url`: https to `youtube.com`, `*.youtube.com`,
 * `*.googlevideo.com`, `*.google.com` or `youtubei.googleapis.com`, or the scheme and host of
 * `origin` when one is configured. URLs with credentials are never allowed.
 */
export function isAllowedUpstreamUrl(url: string, origin?: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username !== '' || u.password !== '') return false;
  if (origin !== undefined) {
    try {
      const o = new URL(origin);
      if (u.protocol === o.protocol && u.host === o.host) return true;
    } catch {
      // An unparseable origin allows nothing extra.
    }
  }
  if (u.protocol !== 'https:' || (u.port !== '' && u.port !== '443')) return false;
  const host = u.hostname.toLowerCase();
  return EXACT.has(host) || SUFFIXES.some((s) => host.endsWith(s));
}

/** Throws `upstream_error` (nothing is sent) when {@link isAllowedUpstreamUrl} refuses `url`. */
export function assertAllowedUpstreamUrl(url: string, origin?: string): void {
  if (!isAllowedUpstreamUrl(url, origin))
    throw new ApiError('upstream_error', 'YouTube pointed at a host tubescribe does not fetch from.');
}

function tooLarge(): ApiError {
  return new ApiError('upstream_error', 'YouTube answered with a body too large to read.');
}

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` of it: past the cap the body is
 * cancelled and `upstream_error` thrown.
 */
export async function readCapped(response: UpstreamAnswer, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) {
    const text = await response.text();
    if (new TextEncoder().encode(text).byteLength > maxBytes) throw tooLarge();
    return text;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value === undefined) continue;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
