/**
 * The body of a successful sign-up verification (HTTP 201), built once the account and key exist.
 * @module
 */
import { SIGNUP_SETTINGS, type SignupSettings } from './signup-settings.ts';

/** The verify response body (HTTP 201). */
export interface VerifyResponse {
  status: 'account_created';
  api_key: string;
  credits: number;
  limits: { requests_per_second: number; requests_per_day: number };
  next: string;
  example_request: string;
  docs: string;
  notes: string;
}

/**
 * Builds the verify response. `credits` is the account's balance after the effects ran (the free
 * grant may have been skipped); `baseUrl` is the data API's origin (a trailing `/` is dropped).
 */
export function buildVerifyResponse(
  input: { apiKey: string; credits: number; baseUrl: string },
  settings: SignupSettings = SIGNUP_SETTINGS,
): VerifyResponse {
  const base = input.baseUrl.replace(/\/+$/, '');
  const perSecond = settings.requestsPerSecond;
  const perDay = settings.requestsPerDay;
  const grant =
    input.credits > 0
      ? `The account starts with ${input.credits} free credits.`
      : "No free credits were granted: this address (or a +tag or dotted variant) already received them, or its domain used up today's free grants.";
  return {
    status: 'account_created',
    api_key: input.apiKey,
    credits: input.credits,
    limits: { requests_per_second: perSecond, requests_per_day: perDay },
    next: `Store api_key server-side and send it as "Authorization: Bearer <api_key>" (or "X-API-Key") on every request to ${base}/v1/.`,
    example_request: `curl -H "Authorization: Bearer ${input.apiKey}" "${base}/v1/transcripts?video_id=${settings.exampleVideoId}"`,
    docs: `${base}/docs`,
    notes:
      `${grant} The key is shown only once and must not be exposed in client code. ` +
      `Until a credit pack is bought the key is limited to ${perSecond} request(s) per second and ` +
      `${perDay} requests per UTC day; any credit pack removes the daily limit.`,
  };
}
