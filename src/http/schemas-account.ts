/**
 * Response schemas of the account, admin, sign-up and system routes (decisions.md, Operator
 * interface and Agent sign-up), with the id patterns of accounts, keys and API keys.
 * @module
 */
import * as v from 'valibot';
import { SCOPES } from '../services/accounts.ts';
import { count, pattern, url } from './schemas-common.ts';
import type { AnySchema } from './validate.ts';

/** The pattern of an account id. */
export const ACCOUNT_ID_PATTERN: RegExp = /^acc_[A-Za-z0-9]{1,64}$/;
/** The pattern of a key id. */
export const KEY_ID_PATTERN: RegExp = /^key_[A-Za-z0-9]{1,64}$/;
/** The pattern of an API key: `tsk_` + 32 random + 6 checksum base62 characters. */
export const API_KEY_PATTERN: RegExp = /^tsk_[A-Za-z0-9]{38}$/;

const accountId = pattern(ACCOUNT_ID_PATTERN, 'An account id (acc_…)');
const keyId = pattern(KEY_ID_PATTERN, 'A key id (key_…)');
const apiKey = pattern(API_KEY_PATTERN, 'The API key, shown only in this answer');
const plan = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('The plan name'));
const credits = v.pipe(count, v.description('The credit balance'));

/** `GET /v1/account`: the calling key's account. */
export const accountSchema: AnySchema = v.strictObject({
  account_id: accountId,
  credits,
  plan,
  limits: v.strictObject({
    requests_per_second: v.pipe(v.number(), v.minValue(0), v.description('The tightest per-second rate')),
    requests_per_day: v.pipe(v.nullable(count), v.description('The daily cap, or null without one')),
  }),
}) as AnySchema;

/** `POST /admin/keys` (201): the new key. */
export const createdKeySchema: AnySchema = v.strictObject({
  api_key: apiKey,
  key_id: keyId,
  account_id: accountId,
  credits,
  plan,
}) as AnySchema;

/** `GET /admin/accounts/{account_id}`: the account and its keys. */
export const accountViewSchema: AnySchema = v.strictObject({
  account_id: accountId,
  credits,
  plan,
  email: v.optional(v.string()),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  keys: v.array(
    v.strictObject({
      key_id: keyId,
      hint: v.pipe(v.string(), v.description('The first 6 and last 4 characters of the key')),
      scopes: v.array(v.picklist(SCOPES)),
      created_at: v.string(),
      revoked: v.boolean(),
      last_used_at: v.optional(
        v.pipe(
          v.string(),
          v.isoTimestamp(),
          v.description('When the key was last used (recorded at most once a minute); absent if never'),
        ),
      ),
    }),
  ),
}) as AnySchema;

/** `POST /admin/accounts/{account_id}/credits`: the balance and plan after the grant. */
export const grantSchema: AnySchema = v.strictObject({ credits, plan }) as AnySchema;

/** `GET /admin/upstream`: the YouTube player clients' circuit breakers. */
export const upstreamHealthSchema: AnySchema = v.strictObject({
  clients: v.array(
    v.strictObject({
      name: v.string(),
      state: v.picklist(['closed', 'open', 'half_open']),
      last_success_at: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
      recent_failures: count,
    }),
  ),
}) as AnySchema;

/** `GET /healthz`. */
export const healthSchema: AnySchema = v.strictObject({ status: v.literal('ok') }) as AnySchema;

/** `GET /openapi.json`: an OpenAPI 3.1 document (described loosely: it describes itself). */
export const openApiSchema: AnySchema = v.looseObject({
  openapi: v.pipe(v.string(), v.regex(/^3\.1\.\d+$/)),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
}) as AnySchema;

/** The RFC 9728 protected-resource metadata (for MCP clients). */
export const resourceMetadataSchema: AnySchema = v.strictObject({
  resource: url,
  bearer_methods_supported: v.array(v.literal('header')),
  resource_documentation: url,
  resource_name: v.string(),
}) as AnySchema;

/** `POST /api/agent/signup`: the code is on its way. */
export const signupSchema: AnySchema = v.strictObject({
  status: v.literal('code_sent'),
  signup_token: v.pipe(v.string(), v.regex(/^sut_[A-Za-z0-9]{32}$/)),
  expires_in: v.pipe(count, v.description('Seconds the token and code stay valid')),
  next: v.string(),
}) as AnySchema;

/** `POST /api/agent/verify` (201): the new key and its limits. */
export const verifySchema: AnySchema = v.strictObject({
  status: v.literal('account_created'),
  api_key: apiKey,
  credits,
  limits: v.strictObject({
    requests_per_second: v.pipe(v.number(), v.minValue(0)),
    requests_per_day: count,
  }),
  next: v.string(),
  example_request: v.string(),
  docs: url,
  notes: v.string(),
}) as AnySchema;
