/**
 * How the Redis ledger's payments (`admitPaid`) are laid out for its scripts: a lone payment as
 * `ADMIT_PAID` takes it, a turn's payments as `ADMIT_PAID_TOGETHER` takes them (what they share
 * named once, as shapes, then each payment by its shape and id: see the script).
 * @module
 */
import type { RateRule } from '../../ports/ledger.ts';

/** One payment as the scripts take it. */
export interface PaidCall {
  /** One hash per rule, then the account, the payments hash of the slice and the two usage hashes of the day. */
  keys: readonly string[];
  /** The time to decide at (ms), or -1 for Redis `TIME`. */
  now: number;
  rules: readonly RateRule[];
  id: string;
  price: number;
  cost: number;
  operation: string;
  /** How long a day's usage hash is kept (ms). */
  usageLifetime: number;
  /** The payments hash lifetime (ms) to set now, or 0. */
  paymentsLifetime: number;
}

/** A rule's window length as the scripts take it: ms, 0 = the UTC day. */
const windowMs = (rule: RateRule): number => (rule.window === 'utc-day' ? 0 : rule.window * 1000);

/** Each rule's limit and window length (ms, 0 = the UTC day), space-separated; kept per rules array. */
const rulesTexts = new WeakMap<readonly RateRule[], string>();
function rulesText(rules: readonly RateRule[]): string {
  let text = rulesTexts.get(rules);
  if (text === undefined) {
    text = rules.map((rule) => `${rule.limit} ${windowMs(rule)}`).join(' ');
    rulesTexts.set(rules, text);
  }
  return text;
}

/** Appends each rule's limit and window length (ms, 0 = the UTC day) to `args`; returns it. */
export function pushRuleArgs(args: (string | number)[], rules: readonly RateRule[]): (string | number)[] {
  for (const rule of rules) args.push(rule.limit, windowMs(rule));
  return args;
}

/** KEYS and ARGV of `ADMIT_PAID` for one payment. */
export function loneArgs(call: PaidCall): { keys: readonly string[]; args: (string | number)[] } {
  const args = pushRuleArgs([call.now, call.rules.length], call.rules);
  args.push(call.id, call.price, call.cost, call.operation, call.usageLifetime, call.paymentsLifetime);
  return { keys: call.keys, args };
}

/** The shape of a payment: everything but its keys and id (the operation last: it may hold spaces). */
function shapeText(call: PaidCall): string {
  const rules = call.rules.length === 0 ? '' : ` ${rulesText(call.rules)}`;
  return `${call.now} ${call.rules.length}${rules} ${call.price} ${call.cost} ${call.usageLifetime} ${call.paymentsLifetime} ${call.operation}`;
}

/** The last shape made, and the payment it was made for: the next payment mostly has the same. */
let lastShape: { call: PaidCall; text: string } | undefined;

/** {@link shapeText}, made again only when the payment differs from the last one in its shape. */
function shapeOf(call: PaidCall): string {
  const last = lastShape?.call;
  if (
    lastShape !== undefined &&
    last?.rules === call.rules &&
    last.now === call.now &&
    last.price === call.price &&
    last.cost === call.cost &&
    last.operation === call.operation &&
    last.usageLifetime === call.usageLifetime &&
    last.paymentsLifetime === call.paymentsLifetime
  ) {
    return lastShape.text;
  }
  const text = shapeText(call);
  lastShape = { call, text };
  return text;
}

const sameKeys = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((key, i) => key === b[i]);

/** KEYS and ARGV of `ADMIT_PAID_TOGETHER` for several payments, in order. */
export function togetherArgs(calls: readonly PaidCall[]): { keys: string[]; args: string[] } {
  const keys: string[] = [];
  const shapes: { text: string; keys: readonly string[] }[] = [];
  const payments: string[] = [];
  for (const call of calls) {
    const text = shapeOf(call);
    // A turn's payments have a shape or two: a look through them beats building a map key.
    let number = shapes.findIndex((shape) => shape.text === text && sameKeys(shape.keys, call.keys)) + 1;
    if (number === 0) {
      shapes.push({ text, keys: call.keys });
      for (const key of call.keys) keys.push(key);
      number = shapes.length;
    }
    payments.push(String(number), call.id);
  }
  const args = [String(shapes.length)];
  for (const shape of shapes) args.push(shape.text);
  for (const payment of payments) args.push(payment);
  return { keys, args };
}
