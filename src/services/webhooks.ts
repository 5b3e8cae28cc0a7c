/**
 * Webhooks: the secret and URL check at submission ({@link newWebhookSecret},
 * {@link checkWebhookUrl}), one signed delivery attempt ({@link WebhookSender}), and the retry
 * schedule between attempts ({@link nextWebhookDelay}). Only public addresses are reached unless
 * the operator allows private ones: the URL is checked when the job is created and again, after
 * DNS resolution, before every attempt. Redirects are never followed.
 * @module
 */
import { isIpLiteral, isPublicAddress, webhookUrlProblem } from '../core/address-policy.ts';
import { encodeBase64Url } from '../core/base64url.ts';
import { signatureHeader } from '../core/webhook-signature.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { FetchLike } from '../ports/fetch.ts';
import type { Logger } from '../ports/logger.ts';
import type { Random } from '../ports/random.ts';

/** Every address (IPv4 and IPv6 text) a host name resolves to; rejects when it does not resolve. */
export type HostLookup = (hostname: string) => Promise<string[]>;

/** Which webhook targets are allowed. */
export interface WebhookPolicy {
  /** `TUBESCRIBE_WEBHOOK_PRIVATE=allow`: `http:`, loopback and private targets are accepted. */
  allowPrivate: boolean;
  /** Resolves host names for the address check; without it host names are not resolved. */
  lookup?: HostLookup;
}

/** Delays before attempts 2, 3, …: 7 tries over 11 min 40 s, the first retry after 10 s. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [10_000, 30_000, 60_000, 120_000, 180_000, 300_000];

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
/** Bound on the DNS lookup of {@link checkWebhookUrl}. */
const CREATION_LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The delay before the next attempt after attempt number `attempt` (1 = the first) failed, or
 * `undefined` when that was the last one (or `attempt` is not a positive integer): give up.
 * `delays` replaces the schedule (tests).
 */
export function nextWebhookDelay(
  attempt: number,
  delays: readonly number[] = WEBHOOK_RETRY_DELAYS_MS,
): number | undefined {
  return Number.isInteger(attempt) && attempt >= 1 ? delays[attempt - 1] : undefined;
}

/** A new webhook secret: `whsec_` and 32 random bytes in base64url (43 characters). */
export function newWebhookSecret(random: Random): string {
  return `whsec_${encodeBase64Url(random.bytes(32))}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** Settles like `promise`, or rejects with the signal's reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Why the URL may not be reached, rules and resolved addresses both; undefined when it may. */
async function refusal(url: string, policy: WebhookPolicy, signal: AbortSignal): Promise<string | undefined> {
  const problem = webhookUrlProblem(url, policy.allowPrivate);
  if (problem !== undefined || policy.allowPrivate || !policy.lookup) return problem;
  const host = new URL(url).hostname;
  if (isIpLiteral(host)) return undefined;
  let addresses: string[];
  try {
    addresses = await untilAborted(policy.lookup(host), signal);
  } catch (error) {
    return `names a host that could not be resolved (${host}: ${describe(error)})`;
  }
  if (addresses.length === 0) return `names a host without addresses (${host})`;
  const refused = addresses.find((address) => !isPublicAddress(address));
  return refused === undefined ? undefined : `resolves to a non-public address (${host} → ${refused})`;
}

/**
 * The check of a webhook URL at job creation: the rules of {@link webhookUrlProblem}, then, when
 * `policy.lookup` is given and the host is a name, every address it resolves to must be public
 * (unless `policy.allowPrivate`); a name that does not resolve is refused too. Without a lookup, a
 * host name passes here and is checked only at delivery, and there only if a lookup exists then.
 * Returns the normalised URL (`URL.href`).
 *
 * @throws ApiError `invalid_webhook_url` (400), its message naming the problem.
 */
export async function checkWebhookUrl(url: string, policy: WebhookPolicy): Promise<string> {
  const problem = await refusal(url, policy, AbortSignal.timeout(CREATION_LOOKUP_TIMEOUT_MS));
  if (problem !== undefined) {
    throw new ApiError('invalid_webhook_url', `The webhook URL ${problem}.`, {
      details: { parameter: 'webhook.url' },
    });
  }
  return new URL(url).href;
}

/** Dependencies of {@link WebhookSender}. */
export interface WebhookSenderDeps {
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  policy: WebhookPolicy;
  /** The signature timestamp. */
  clock: Clock;
  logger: Logger;
  /** Bound on one attempt, DNS lookup and response included. Default 10 000. */
  timeoutMs?: number;
  /** At most this much of the answer is read; then the connection is dropped. Default 65 536. */
  maxResponseBytes?: number;
}

/** Where an event goes: the URL checked at creation and the secret that signs it. */
export type WebhookTarget = { url: string; secret: string };

/** One event: its id (the same on every attempt), type (`batch.completed`) and exact body. */
export type WebhookEvent = { id: string; type: string; body: string };

/** What one attempt came to: `ok` on a 2xx; `status` when an answer came, `error` when not ok. */
export interface WebhookResult {
  ok: boolean;
  status?: number;
  error?: string;
}

/** Reads (and discards) at most about `maxBytes` of the body, then cancels the rest. */
async function drain(response: Response, maxBytes: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  try {
    for (let read = 0; read < maxBytes; ) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    reader.cancel().catch(() => {});
  } catch {
    // The status decides the outcome; a body that fails or times out does not change it.
  }
}

/** Sends webhook events, one attempt per {@link WebhookSender.deliver} call. */
export class WebhookSender {
  /** A sender with the given fetch, policy, clock and limits. */
  constructor(private readonly deps: WebhookSenderDeps) {}

  /**
   * One delivery attempt: re-checks the URL and the addresses its host resolves to (a refused
   * target gets no request), then POSTs `event.body` as `application/json` with
   * `Tubescribe-Event-Id`, `Tubescribe-Event` and `Tubescribe-Signature` (timestamp from the
   * clock), without following redirects. `ok` only on a 2xx; a 3xx, another status, a network
   * error, a refused address or the timeout are failures. Never throws; failures are logged at
   * `warn` with the target's origin only (no path, query or secret).
   */
  async deliver(target: WebhookTarget, event: WebhookEvent): Promise<WebhookResult> {
    const timeoutMs = this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    let result: WebhookResult;
    try {
      result = await this.#attempt(target, event, signal);
    } catch (error) {
      result = { ok: false, error: signal.aborted ? `timed out after ${timeoutMs} ms` : describe(error) };
    }
    const origin = URL.canParse(target.url) ? new URL(target.url).origin : 'invalid';
    const fields = { event_id: event.id, event: event.type, target: origin };
    if (result.ok) this.deps.logger.log('debug', 'webhook delivered', { ...fields, status: result.status });
    else this.deps.logger.log('warn', 'webhook delivery failed', { ...fields, ...result });
    return result;
  }

  async #attempt(target: WebhookTarget, event: WebhookEvent, signal: AbortSignal): Promise<WebhookResult> {
    const { policy, clock } = this.deps;
    const problem = await refusal(target.url, policy, signal);
    if (problem !== undefined) return { ok: false, error: `refused: the webhook URL ${problem}` };
    const timestamp = Math.floor(clock.now() / 1000);
    const send = this.deps.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
    const response = await send(target.url, {
      method: 'POST',
      redirect: 'manual',
      signal,
      body: event.body,
      headers: {
        'Content-Type': 'application/json',
        'Tubescribe-Event-Id': event.id,
        'Tubescribe-Event': event.type,
        'Tubescribe-Signature': await signatureHeader(target.secret, timestamp, event.body),
      },
    });
    await drain(response, this.deps.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    const status = response.status;
    if (status >= 200 && status < 300) return { ok: true, status };
    const redirect = response.type === 'opaqueredirect' || (status >= 300 && status < 400);
    const error = redirect ? `redirect (${status}) not followed` : `HTTP ${status}`;
    return status > 0 ? { ok: false, status, error } : { ok: false, error };
  }
}
