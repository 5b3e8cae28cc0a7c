/**
 * The Redis Ledger: exact across any number of tubescribe instances sharing one Redis.
 *
 * - One Lua script per atomic operation (reserve, settle = commit/release, grant, hit, consume
 *   once, counter); a script runs alone on the server, so no two instances interleave.
 * - Time comes from Redis (`TIME`) inside the scripts, so application clocks cannot skew windows
 *   or expiries. Tests may inject a clock instead (`clock`), which is then passed to every script.
 * - Keys are hash-tagged: all credit keys share `{<prefix>c}` (a reservation, its account and the
 *   grant keys must change together); each rate-limit bucket has its own tag, and one-time keys
 *   and counters are single keys. Every key a script touches is declared, so it runs on a
 *   Redis Cluster.
 * - Logical expiries (holds, one-time keys, counters, windows) are stored with the values and
 *   checked against the script's time; Redis TTLs only clean up.
 * @module
 */
import type { Redis } from 'ioredis';
import { evaluateHit } from '../../core/ratelimit.ts';
import type { Clock } from '../../ports/clock.ts';
import type { AccountCredits, Ledger, RateDecision, RateRule, ReserveResult } from '../../ports/ledger.ts';

/** Options of {@link createRedisLedger}. */
export interface RedisLedgerOptions {
  /** A connected ioredis client (the ledger does not close it unless `owned`). */
  client: Redis;
  /** Key prefix, e.g. `ts:`. Default `tubescribe:`. */
  prefix?: string;
  /** Use this clock instead of Redis `TIME` (tests). */
  clock?: Clock;
  /** Close the client on `close()`. */
  owned?: boolean;
}

/** Returns the script's notion of now (ms): the injected one, or Redis TIME. */
const NOW = `
local now = tonumber(ARGV[1])
if now == nil or now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/** KEYS: account, holds, holdExpiry, idempotency. ARGV: now, account, cost, id, ttlMs. */
const RESERVE = `${NOW}
local seen = redis.call('GET', KEYS[4])
if seen then return seen end
local balance = tonumber(redis.call('HGET', KEYS[1], 'balance') or '0')
local cost = tonumber(ARGV[3])
if redis.call('HEXISTS', KEYS[2], ARGV[4]) == 1 or balance < cost then
  return '0|' .. balance
end
local ttl = tonumber(ARGV[5])
-- 0 - cost, not -cost: Lua's -0 is not an integer to HINCRBY.
redis.call('HINCRBY', KEYS[1], 'balance', 0 - cost)
redis.call('HINCRBY', KEYS[1], 'reserved', cost)
redis.call('HSET', KEYS[2], ARGV[4], ARGV[2] .. '|' .. cost)
redis.call('ZADD', KEYS[3], now + ttl, ARGV[4])
local result = '1|' .. (balance - cost)
redis.call('SET', KEYS[4], result, 'PX', ttl)
return result
`;

/** KEYS: account, holds, holdExpiry. ARGV: now, id, account, spend (1/0). */
const SETTLE = `
local hold = redis.call('HGET', KEYS[2], ARGV[2])
if not hold then return 0 end
local sep = string.find(hold, '|', 1, true)
if string.sub(hold, 1, sep - 1) ~= ARGV[3] then return 0 end
local cost = tonumber(string.sub(hold, sep + 1))
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'reserved', 0 - cost)
if ARGV[4] == '1' then
  redis.call('HINCRBY', KEYS[1], 'spent', cost)
else
  redis.call('HINCRBY', KEYS[1], 'balance', cost)
end
return 1
`;

/** KEYS: account, grants. ARGV: now, account, amount, key. */
const GRANT = `
if redis.call('HEXISTS', KEYS[2], ARGV[4]) == 1 then
  return '0|' .. (redis.call('HGET', KEYS[1], 'balance') or '0')
end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'granted', tonumber(ARGV[3]))
return '1|' .. redis.call('HINCRBY', KEYS[1], 'balance', tonumber(ARGV[3]))
`;

/**
 * KEYS: one hash per rule ({start, count}). ARGV: now, then per rule: limit, window length in
 * ms (0 = the UTC day). Counts the hit in every rule or none; returns now and the counts before.
 */
const HIT = `${NOW}
local n = #KEYS
local counts = {}
local starts = {}
local ends = {}
local allowed = true
for i = 1, n do
  local limit = tonumber(ARGV[2 * i])
  local length = tonumber(ARGV[2 * i + 1])
  if length == 0 then length = 86400000 end
  local start = now - (now % length)
  starts[i] = start
  ends[i] = start + length
  local stored = redis.call('HMGET', KEYS[i], 'start', 'count')
  local count = 0
  if tonumber(stored[1]) == start then count = tonumber(stored[2]) or 0 end
  counts[i] = count
  if count + 1 > limit then allowed = false end
end
if allowed then
  for i = 1, n do
    redis.call('HSET', KEYS[i], 'start', starts[i], 'count', counts[i] + 1)
    redis.call('PEXPIRE', KEYS[i], math.max(1, ends[i] - now) + 1000)
  end
end
local out = { now }
for i = 1, n do out[i + 1] = counts[i] end
return out
`;

/** KEYS: the key. ARGV: now, ttlMs. 1 for the first caller within the lifetime. */
const CONSUME_ONCE = `${NOW}
local expiry = tonumber(redis.call('GET', KEYS[1]) or '0')
if expiry > now then return 0 end
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], now + ttl, 'PX', ttl)
return 1
`;

/** KEYS: the counter ({value, expires}). ARGV: now, by, ttlMs. The new value. */
const COUNTER = `${NOW}
local stored = redis.call('HMGET', KEYS[1], 'value', 'expires')
local value = 0
local expires = tonumber(stored[2])
if expires ~= nil and expires > now then value = tonumber(stored[1]) or 0 else expires = nil end
local by = tonumber(ARGV[2])
if by == 0 then return value end
if expires == nil then expires = now + tonumber(ARGV[3]) end
value = value + by
redis.call('HSET', KEYS[1], 'value', value, 'expires', expires)
redis.call('PEXPIRE', KEYS[1], math.max(1, expires - now))
return value
`;

/** A Lua script run by SHA, loaded (again) when Redis does not know it. */
class Script {
  private sha: string | undefined;
  constructor(
    private readonly client: Redis,
    private readonly lua: string,
  ) {}

  async run(keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    this.sha ??= (await this.client.script('LOAD', this.lua)) as string;
    try {
      return await this.client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      this.sha = (await this.client.script('LOAD', this.lua)) as string;
      return this.client.evalsha(this.sha, keys.length, ...keys, ...args);
    }
  }
}

const pair = (value: unknown): [boolean, number] => {
  const [flag = '0', number = '0'] = String(value).split('|');
  return [flag === '1', Number(number)];
};

/** Creates the Redis ledger over a connected client. */
export function createRedisLedger(options: RedisLedgerOptions): Ledger {
  const { client } = options;
  const prefix = options.prefix ?? 'tubescribe:';
  const credits = `{${prefix}c}`;
  const holds = `${credits}:holds`;
  const holdExpiry = `${credits}:hold-expiry`;
  const grants = `${credits}:grants`;
  const account = (id: string) => `${credits}:acct:${id}`;
  const scripts = {
    reserve: new Script(client, RESERVE),
    settle: new Script(client, SETTLE),
    grant: new Script(client, GRANT),
    hit: new Script(client, HIT),
    once: new Script(client, CONSUME_ONCE),
    counter: new Script(client, COUNTER),
  };
  const now = (): number => options.clock?.now() ?? -1;

  async function settle(reservationId: string, spend: boolean): Promise<boolean> {
    const hold = await client.hget(holds, reservationId);
    if (!hold) return false;
    const owner = hold.slice(0, hold.lastIndexOf('|'));
    const done = await scripts.settle.run(
      [account(owner), holds, holdExpiry],
      [now(), reservationId, owner, spend ? 1 : 0],
    );
    return Number(done) === 1;
  }

  async function redisNow(): Promise<number> {
    if (options.clock) return options.clock.now();
    const [seconds, micros] = await client.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  return {
    async credits(id: string): Promise<AccountCredits> {
      const [balance, reserved, spent, granted] = await client.hmget(
        account(id),
        'balance',
        'reserved',
        'spent',
        'granted',
      );
      return {
        balance: Number(balance ?? 0),
        reserved: Number(reserved ?? 0),
        spent: Number(spent ?? 0),
        granted: Number(granted ?? 0),
      };
    },

    async reserve(id, cost, reservationId, ttlMs): Promise<ReserveResult> {
      const [ok, balance] = pair(
        await scripts.reserve.run(
          [account(id), holds, holdExpiry, `${credits}:reserved:${reservationId}`],
          [now(), id, cost, reservationId, Math.max(1, Math.round(ttlMs))],
        ),
      );
      return { ok, balance };
    },

    commit: (reservationId) => settle(reservationId, true),
    release: (reservationId) => settle(reservationId, false),

    async grant(id, amount, idempotencyKey) {
      const [applied, balance] = pair(
        await scripts.grant.run([account(id), grants], [now(), id, amount, idempotencyKey]),
      );
      return { applied, balance };
    },

    async hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision> {
      const tag = `{${prefix}rl:${bucket}}`;
      const keys = rules.map((rule, i) => `${tag}:${i}:${rule.window === 'utc-day' ? 'd' : rule.window}`);
      const args: (string | number)[] = [now()];
      for (const rule of rules) args.push(rule.limit, rule.window === 'utc-day' ? 0 : rule.window * 1000);
      const [at, ...counts] = (await scripts.hit.run(keys, args)) as number[];
      return evaluateHit(counts.map(Number), rules, Number(at));
    },

    async consumeOnce(key, ttlMs) {
      return (
        Number(await scripts.once.run([`${prefix}once:${key}`], [now(), Math.max(1, Math.round(ttlMs))])) ===
        1
      );
    },

    async counter(key, by, ttlMs) {
      return Number(
        await scripts.counter.run([`${prefix}ctr:${key}`], [now(), by, Math.max(1, Math.round(ttlMs))]),
      );
    },

    async reconcile() {
      const expired = await client.zrangebyscore(holdExpiry, '-inf', await redisNow(), 'LIMIT', 0, 1000);
      let released = 0;
      for (const id of expired) if (await settle(id, false)) released++;
      return released;
    },

    async close() {
      if (options.owned) await client.quit().catch(() => client.disconnect());
    },
  };
}
