/**
 * One MCP tool call through the same pipeline as a REST call: scope check, the tool's charge
 * worked out from its arguments, rate limits and daily cap fused with the reservation of a priced
 * operation (`admit`), then work → commit (`charge`); or, for a tool that reads the cache, an
 * answer made from memory first and admitted and paid in one ledger step (`from-memory.ts`).
 * Success is a result with `structuredContent` and the same data as a JSON text block; every
 * failure (`ApiError`: unavailable video, no captions, 402, 429, upstream blocked…) is an
 * `isError` result naming the code and whether to retry, and is free.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Operation } from '../../core/pricing.ts';
import { rateLimitApiError } from '../../core/ratelimit.ts';
import { ApiError } from '../../errors.ts';
import { hasScope, type Principal, type Scope } from '../../services/accounts.ts';
import { ensurePaid } from '../../services/billing.ts';
import type { CacheStatus } from '../../services/cache.ts';
import { asApiError } from '../../services/context.ts';
import type { Services } from '../../services/index.ts';
import { answerFromMemory, MEMORY_ONLY } from '../from-memory.ts';
import type { LazyCall } from '../route-call.ts';

/** Who calls, and the request the call arrived in. */
export interface CallerInfo {
  principal: Principal;
  /** The HTTP request's id: the reservation id of the call. */
  requestId: string;
  /** The call's context: its deadline signal is made when upstream work first reads it. */
  call: LazyCall;
  /** Whether the client went away (asked without making a signal). */
  gone: () => boolean;
  /** The public base URL. */
  baseUrl: string;
}

/** What a tool's work produces: the structured result and whether it came from the cache. */
export interface ToolOutput {
  data: Record<string, unknown>;
  cache?: CacheStatus;
}

/** How a tool is charged: a priced operation, or nothing (free follow-up pages). */
export type Charge = { operation: Operation } | 'free';

/** The success result: `structuredContent` and the same data as JSON text. */
export function toolResult(data: Record<string, unknown>): CallToolResult {
  return { structuredContent: data, content: [{ type: 'text', text: JSON.stringify(data) }] };
}

/** The failure result of an error: its code, message and retry advice; free. */
export function toolError(error: unknown): CallToolResult {
  const e = asApiError(error);
  const wait = e.retryAfter === undefined ? '' : `, after ${Math.max(1, Math.ceil(e.retryAfter))} s`;
  const advice = e.retryable
    ? `Retryable: yes${wait}.`
    : 'Retryable: no (retrying the same call will fail again).';
  const body: Record<string, unknown> = { code: e.code, message: e.message, retryable: e.retryable };
  if (e.retryAfter !== undefined) body.retry_after = Math.max(1, Math.ceil(e.retryAfter));
  if (e.details !== undefined) body.details = e.details;
  return {
    isError: true,
    content: [
      { type: 'text', text: `Error ${e.code}: ${e.message} ${advice}\n${JSON.stringify({ error: body })}` },
    ],
  };
}

/**
 * Runs one tool call for `caller`: refuses a missing scope, counts the call against the plan,
 * charges `charge` around `work` (committed only when it succeeds), and turns every failure into
 * an `isError` result. `work` runs under the call it is given. With `fromMemory` (a tool whose
 * work is reading the cache), a priced call is first run from memory alone and, when that answers,
 * admitted and paid in one ledger step, as REST does (`from-memory.ts`).
 */
export async function runTool(
  services: Services,
  caller: CallerInfo,
  scope: Scope,
  charge: (() => Promise<Charge>) | Charge,
  work: (call: LazyCall) => Promise<ToolOutput>,
  fromMemory = false,
): Promise<CallToolResult> {
  const { principal } = caller;
  try {
    if (!hasScope(principal.scopes, scope)) {
      throw new ApiError('insufficient_scope', `This key lacks the ${scope} scope this tool needs.`);
    }
    // The charge is known before admission (its arguments checked first, as REST validates its
    // input first), so a priced call is admitted and reserved in one ledger step.
    const how = typeof charge === 'function' ? await charge() : charge;
    if (how !== 'free' && fromMemory && services.billing.paysReadyAnswers) {
      const ready = await answerFromMemory(() => work(MEMORY_ONLY));
      // A client gone meanwhile is not charged: the usual path settles that.
      if (ready && !caller.gone()) return await payReady(services, principal, how.operation, caller, ready);
    }
    const next = how === 'free' ? undefined : { op: how.operation, reservationId: caller.requestId };
    const decision = await services.billing.admit(principal, next);
    if (!decision.allowed) throw rateLimitApiError(decision, principal.plan.rules);
    if (how === 'free') return toolResult((await work(caller.call)).data);
    const { result } = await services.billing.charge(
      principal,
      how.operation,
      caller.requestId,
      () => work(caller.call),
      (output) => output.cache,
      () => caller.call.settledSignal(caller.gone),
    );
    return toolResult(result.data);
  } catch (error) {
    if (caller.call.signalMade && caller.call.signal.aborted && !(error instanceof ApiError)) throw error;
    return toolError(error);
  }
}

/** Admits and pays for `ready`, an answer made from memory, in one ledger step; refusals throw. */
async function payReady(
  services: Services,
  principal: Principal,
  op: Operation,
  caller: CallerInfo,
  ready: ToolOutput,
): Promise<CallToolResult> {
  const payment = await services.billing.payReady(principal, op, caller.requestId, ready.cache);
  ensurePaid(payment, principal.plan.rules);
  return toolResult(ready.data);
}
