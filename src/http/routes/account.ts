/**
 * GET /v1/account (free, any key) and the operator's admin API (decisions.md, Operator interface).
 * @module
 */
import * as v from 'valibot';
import { accountKey, parseEmail } from '../../core/email.ts';
import { ApiError } from '../../errors.ts';
import { isScope, SCOPES, type Scope } from '../../services/accounts.ts';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import {
  ACCOUNT_ID_PATTERN,
  accountSchema,
  accountViewSchema,
  createdKeySchema,
  grantSchema,
  KEY_ID_PATTERN,
  upstreamHealthSchema,
} from '../schemas-account.ts';

const credits = v.pipe(
  v.number('expected a whole number of credits'),
  v.integer('expected a whole number of credits'),
  v.minValue(0, 'expected 0 or more credits'),
  v.maxValue(1_000_000_000, 'expected at most 1,000,000,000 credits'),
);

const createKeyBody = v.object({
  credits: v.optional(credits),
  plan: v.optional(v.pipe(v.string('expected a plan name'), v.minLength(1), v.maxLength(64))),
  scopes: v.optional(
    v.pipe(
      v.array(v.string(), 'expected an array of scopes'),
      v.check((list) => list.every(isScope), `expected scopes among ${SCOPES.join(', ')}`),
    ),
  ),
  email: v.optional(v.pipe(v.string('expected an email address'), v.maxLength(254))),
});

const grantBody = v.pipe(
  v.object({
    amount: v.optional(v.pipe(credits, v.minValue(1, 'expected at least 1 credit'))),
    pack: v.optional(v.pipe(v.string('expected a pack name'), v.minLength(1), v.maxLength(64))),
  }),
  v.check((b) => (b.amount === undefined) !== (b.pack === undefined), 'send exactly one of amount or pack'),
);

const accountParams = v.object({
  account_id: v.pipe(v.string(), v.metadata({ pattern: ACCOUNT_ID_PATTERN.source }), v.maxLength(80)),
});
const keyParams = v.object({
  key_id: v.pipe(v.string(), v.metadata({ pattern: KEY_ID_PATTERN.source }), v.maxLength(80)),
});

/** `GET /v1/account` and the admin routes. */
export function accountRoutes({ services, settings }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/account',
      tags: ['Account'],
      summary: "The calling key's account: credits, plan and limits (free)",
      auth: 'key',
      operations: ['account'],
      operation: () => 'account',
      response: {
        description: '{account_id, credits, plan, limits:{requests_per_second, requests_per_day}}',
        schema: accountSchema,
      },
      errors: [],
      handle: async (_input, ctx) => ({ json: await services.accounts.me(ctx.principal!) }),
    }),
    defineRoute({
      method: 'post',
      path: '/admin/keys',
      tags: ['Admin'],
      summary: 'Create an API key (on a new account, or on the account of `email`)',
      auth: 'admin',
      body: createKeyBody,
      response: {
        status: 201,
        description: '{api_key, key_id, account_id, credits, plan}',
        schema: createdKeySchema,
      },
      errors: [400, 403],
      handle: async (input) => {
        const b = input.body;
        const create: Parameters<typeof services.accounts.createKey>[0] = {};
        if (b.credits !== undefined) create.credits = b.credits;
        if (b.plan !== undefined) {
          if (!(b.plan in settings.plans)) {
            throw new ApiError(
              'invalid_parameter',
              `Invalid parameter 'plan': known plans are ${Object.keys(settings.plans).join(', ')}.`,
              {
                details: { parameter: 'plan', location: 'body' },
              },
            );
          }
          create.plan = b.plan;
        }
        if (b.scopes !== undefined) create.scopes = b.scopes as Scope[];
        if (b.email !== undefined) {
          const email = parseEmail(b.email);
          create.email = email.address;
          create.emailKey = accountKey(email.address);
        }
        return { json: await services.accounts.createKey(create), status: 201 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/accounts/{account_id}',
      tags: ['Admin'],
      summary: 'An account with its credits, plan and keys',
      auth: 'admin',
      params: accountParams,
      response: { description: '{account_id, credits, plan, keys:[…]}', schema: accountViewSchema },
      errors: [403, 404],
      handle: async (input) => ({ json: await services.accounts.view(input.params.account_id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/admin/accounts/{account_id}/credits',
      tags: ['Admin'],
      summary: 'Grant credits: an amount, or a pack (which moves the account to the paid plan)',
      description:
        'Send an `Idempotency-Key` header to make retries safe: a repeated key grants nothing more.',
      auth: 'admin',
      params: accountParams,
      body: grantBody,
      response: { description: '{credits, plan}', schema: grantSchema },
      errors: [400, 403, 404],
      handle: async (input, ctx) => {
        const header = ctx.c.req.header('idempotency-key')?.trim();
        if (header !== undefined && (header === '' || header.length > 200)) {
          throw new ApiError('invalid_parameter', "Invalid header 'Idempotency-Key': 1 to 200 characters.", {
            details: { parameter: 'Idempotency-Key', location: 'header' },
          });
        }
        const grant: { amount?: number; pack?: string } = {};
        if (input.body.amount !== undefined) grant.amount = input.body.amount;
        if (input.body.pack !== undefined) grant.pack = input.body.pack;
        const result = await services.accounts.grant(input.params.account_id, grant, header);
        return { json: { credits: result.credits, plan: result.plan } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/upstream',
      tags: ['Admin'],
      summary: "The YouTube clients' health: circuit breaker state, last success, failures in a row",
      auth: 'admin',
      response: {
        description: '{clients:[{name, state, last_success_at, recent_failures}]}',
        schema: upstreamHealthSchema,
      },
      errors: [403],
      handle: async () => ({ json: services.upstream.upstreamHealth() }),
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/keys/{key_id}',
      tags: ['Admin'],
      summary: 'Revoke a key (at once, on every instance)',
      auth: 'admin',
      params: keyParams,
      response: { status: 204, description: 'Revoked' },
      errors: [403, 404],
      handle: async (input) => {
        await services.accounts.revoke(input.params.key_id);
        return { empty: true, status: 204 };
      },
    }),
  ];
}
