/**
 * Helpers for the HTTP tests in `test/http/`: an app with a funded key on a plan without
 * practical rate limits, and assertions for the error envelope.
 */
import { expect } from 'vitest';
import { generateApiKey, isWellFormedApiKey } from '../../src/core/api-keys.ts';
import { ERROR_CODES, type ErrorCode } from '../../src/errors.ts';
import { SeededRandom } from '../fakes/random.ts';
import { type TestApp, type TestAppOptions, testApp } from './app.ts';

/** A plan that never rate-limits in tests (one rule, a million per second). */
export const UNLIMITED = 'unlimited';

/** An app and one funded key. */
export interface Fixture extends TestApp {
  apiKey: string;
  accountId: string;
  keyId: string;
  /** `call` with the fixture's key. */
  get(path: string, init?: RequestInit): Promise<Response>;
  /** A JSON POST with the fixture's key. */
  post(path: string, body: unknown, init?: RequestInit): Promise<Response>;
}

/** An error body as the contract defines it. */
export interface ErrorBody {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

/** A well-formed key (prefix, random part, checksum) that no test account holds. */
export const WELL_FORMED_UNKNOWN_KEY: string = generateApiKey(new SeededRandom(424_242));
if (!isWellFormedApiKey(WELL_FORMED_UNKNOWN_KEY)) throw new Error('WELL_FORMED_UNKNOWN_KEY is malformed');

/** Builds an app and a key with `credits` on the {@link UNLIMITED} plan (or `plan`). */
export async function fixture(
  options: TestAppOptions = {},
  credits = 1000,
  extra: Record<string, unknown> = {},
): Promise<Fixture> {
  const t = await testApp({
    ...options,
    plans: { [UNLIMITED]: [{ limit: 1_000_000, window: 1 }], ...options.plans },
  });
  const k = await t.key(credits, { plan: UNLIMITED, ...extra });
  const get = (path: string, init: RequestInit = {}) => t.call(path, { ...init, key: k.api_key });
  const post = (path: string, body: unknown, init: RequestInit = {}) =>
    t.call(path, {
      ...init,
      method: 'POST',
      key: k.api_key,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { ...t, apiKey: k.api_key, accountId: k.account_id, keyId: k.key_id, get, post };
}

/** True when `body` is exactly the error envelope `{error:{code,message,retryable[,details]}}`. */
export function isEnvelope(body: unknown): body is { error: ErrorBody } {
  if (typeof body !== 'object' || body === null) return false;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'error') return false;
  const e = (body as { error: unknown }).error as Record<string, unknown> | null;
  if (typeof e !== 'object' || e === null) return false;
  const extra = Object.keys(e).filter((k) => !['code', 'message', 'retryable', 'details'].includes(k));
  return (
    extra.length === 0 &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    e.message.length > 0 &&
    typeof e.retryable === 'boolean' &&
    (e.details === undefined || (typeof e.details === 'object' && e.details !== null))
  );
}

/**
 * Asserts an error response: status, JSON content type, the envelope, the code and the retryable
 * flag of decisions.md (the table in src/errors.ts). Returns the `error` object.
 */
export async function expectError(res: Response, status: number, code: ErrorCode): Promise<ErrorBody> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as unknown;
  expect(isEnvelope(body), text).toBe(true);
  const error = (body as { error: ErrorBody }).error;
  expect(error.code).toBe(code);
  expect(ERROR_CODES[code].status).toBe(status);
  expect(error.retryable).toBe(ERROR_CODES[code].retryable);
  expect(res.headers.get('x-credits-to-deduct')).toBeNull();
  return error;
}

/** Asserts a 200 JSON response and returns its body. */
export async function expectJson<T = Record<string, unknown>>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

/** Asserts the headers every keyed 200 carries: request id, credits, rate limits. */
export function expectKeyedHeaders(res: Response, credits: number): void {
  expect(res.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9]+$/);
  expect(res.headers.get('x-credits-to-deduct')).toBe(String(credits));
  expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+(\.\d+)?$/);
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
}

/** Flips one character in the middle of a cursor. */
export function tamper(cursor: string): string {
  const i = Math.floor(cursor.length / 2);
  return cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
}

/** Waits for pending timers and I/O callbacks (real time, a few ms). */
export function settle(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Path of the keyed routes, with sample arguments, for table tests. */
export const KEYED_ROUTES: readonly { method: string; path: string; body?: unknown; price: number }[] = [
  { method: 'POST', path: '/v1/transcripts', body: { video_id: 'dQw4w9WgXcQ' }, price: 1 },
  { method: 'GET', path: '/v1/transcripts?video_id=dQw4w9WgXcQ', price: 1 },
  { method: 'GET', path: '/v1/transcripts/dQw4w9WgXcQ', price: 1 },
  { method: 'GET', path: '/v1/transcripts/dQw4w9WgXcQ/languages', price: 0 },
  { method: 'GET', path: '/v1/videos/dQw4w9WgXcQ/basic-info', price: 0 },
  { method: 'GET', path: '/v1/videos/dQw4w9WgXcQ/video-info', price: 1 },
  { method: 'GET', path: '/v1/videos/dQw4w9WgXcQ', price: 1 },
  { method: 'GET', path: '/v1/videos/dQw4w9WgXcQ?mode=full', price: 2 },
  { method: 'GET', path: '/v1/videos/dQw4w9WgXcQ/comments', price: 1 },
  { method: 'GET', path: '/v1/playlists/PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', price: 1 },
  { method: 'GET', path: '/v1/playlists/PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI/videos', price: 1 },
  { method: 'GET', path: '/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw', price: 1 },
  { method: 'GET', path: '/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw/latest', price: 1 },
  { method: 'GET', path: '/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw/videos', price: 1 },
  { method: 'GET', path: '/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw/streams', price: 1 },
  { method: 'GET', path: '/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw/shorts', price: 1 },
  { method: 'GET', path: '/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw/playlists', price: 1 },
  { method: 'GET', path: '/v1/search?q=rick', price: 1 },
  { method: 'GET', path: '/v1/search/suggestions?q=rick', price: 0 },
  { method: 'GET', path: '/v1/account', price: 0 },
];

/** A Request init for one {@link KEYED_ROUTES} entry. */
export function routeInit(route: { method: string; body?: unknown }): RequestInit {
  return route.body === undefined
    ? { method: route.method }
    : {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(route.body),
      };
}
