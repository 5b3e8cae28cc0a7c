/**
 * Agent sign-up (the contract's {signup_url}): POST /api/agent/signup and /api/agent/verify.
 * No key needed; every throttle and state lives in the shared storage, so these routes may be
 * served by the main app or by a sign-up-only app on another host.
 * @module
 */
import * as v from 'valibot';
import { isWellFormedCode } from '../../core/signup-code.ts';
import { ApiError } from '../../errors.ts';
import { asApiError } from '../../services/context.ts';
import type { Metrics } from '../../services/metrics.ts';
import type { SignupClient } from '../../services/signup.ts';
import type { Settings } from '../../settings.ts';
import type { RouteDeps } from '../context.ts';
import { publicBase } from '../public-url.ts';
import { defineRoute, type Route, type RouteContext } from '../route.ts';
import { signupSchema, verifySchema } from '../schemas-account.ts';

// Loose shapes: the service answers with the contract's own codes (invalid_email, invalid_request).
const signupBody = v.object({ email: v.optional(v.unknown()) });
const verifyBody = v.object({ signup_token: v.optional(v.unknown()), code: v.optional(v.unknown()) });

/**
 * The sign-up client of a request. Links come from `public-url.ts`, never from the `Host` header;
 * a sign-up-only app's `publicUrl` names the data API, so its own verify URL is built without it.
 */
function clientOf(ctx: RouteContext, settings: Settings): SignupClient {
  const own =
    settings.routes === 'signup' ? publicBase(ctx.c, { ...settings, publicUrl: undefined }) : ctx.baseUrl;
  return {
    address: ctx.address,
    baseUrl: ctx.baseUrl,
    verifyUrl: `${own}/api/agent/verify`,
  };
}

/** Runs a sign-up step, telling the metrics how it ended: `done` (its success), or the error code. */
async function counted<T>(
  metrics: Metrics,
  step: 'signup' | 'verify',
  done: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    const result = await work();
    metrics.signup(step, done);
    return result;
  } catch (error) {
    metrics.signup(step, asApiError(error).code);
    throw error;
  }
}

/** The sign-up routes. */
export function signupRoutes({ services, settings }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/agent/signup',
      tags: ['Agent sign-up'],
      summary: 'Start a sign-up: a 6-digit code is emailed; the response holds the signup_token',
      description:
        'Body `{"email": "…"}`. The answer is identical whether or not the address already has an account. ' +
        'Token and code are valid for 600 seconds; a new sign-up for the same address replaces the previous code.',
      auth: 'none',
      body: signupBody,
      response: {
        description: '{status: "code_sent", signup_token, expires_in: 600, next}',
        schema: signupSchema,
      },
      errors: [400, 429, 502, 503],
      handle: (input, ctx) =>
        counted(services.metrics, 'signup', 'code_sent', async () => ({
          json: await services.signups.signup(input.body.email, clientOf(ctx, settings)),
        })),
    }),
    defineRoute({
      method: 'post',
      path: '/api/agent/verify',
      tags: ['Agent sign-up'],
      summary: 'Finish a sign-up with the emailed code: 201 with a new API key and 200 free credits',
      description:
        'Body `{"signup_token": "…", "code": "123456"}`. Three wrong codes end the sign-up; an address that ' +
        'already has an account gets 409 account_exists once the code is correct, and no key.',
      auth: 'none',
      body: verifyBody,
      response: {
        status: 201,
        description:
          '{status: "account_created", api_key, credits, limits, next, example_request, docs, notes}',
        schema: verifySchema,
      },
      errors: [400, 409, 429, 503],
      handle: (input, ctx) =>
        counted(services.metrics, 'verify', 'account_created', async () => {
          const { signup_token: token, code } = input.body;
          if (typeof token !== 'string' || token === '' || !isWellFormedCode(code)) {
            throw new ApiError('invalid_request', 'Send {"signup_token": "<token>", "code": "<6 digits>"}.');
          }
          return {
            json: await services.signups.verify(token, code as string, clientOf(ctx, settings)),
            status: 201,
          };
        }),
    }),
  ];
}
