/**
 * `tubescribe keys …` and `tubescribe credits …`: key and credit management on the configured
 * storage directly (decisions.md, Operator interface).
 * @module
 */
import process from 'node:process';
import { DEFAULT_PLAN_ASSIGNMENT, resolvePlans } from '../core/plans.ts';
import { resolvePacks } from '../core/pricing.ts';
import { cryptoRandom, systemClock } from '../drivers/system.ts';
import { ApiError } from '../errors.ts';
import { Accounts, isScope, type Scope } from '../services/accounts.ts';
import { type Args, flag, flagList } from './args.ts';
import { type Config, ConfigError, checkFlags } from './config.ts';
import { openStorage } from './storage.ts';

async function withAccounts<T>(config: Config, fn: (accounts: Accounts) => Promise<T>): Promise<T> {
  const storage = await openStorage(config.storage, systemClock);
  try {
    const accounts = new Accounts({
      kv: storage.kv,
      ledger: storage.ledger,
      clock: systemClock,
      random: cryptoRandom,
      // The server's plans (TUBESCRIBE_PLANS, TUBESCRIBE_DEFAULT_PLAN): a key made here gets the
      // plan a key made through the admin API would.
      plans: resolvePlans(config.plans.plans),
      planAssignment: {
        ...DEFAULT_PLAN_ASSIGNMENT,
        ...(config.plans.defaultPlan ? { initial: config.plans.defaultPlan } : {}),
      },
      packs: resolvePacks(),
    });
    return await fn(accounts);
  } finally {
    await storage.close();
  }
}

/** The most credits one key or grant may carry, as the admin API allows. */
const MAX_CREDITS = 1_000_000_000;

/** A whole number of credits from `min` to {@link MAX_CREDITS}, as the admin API takes them. */
function credits(name: string, text: string | undefined, min: number): number {
  const n = text !== undefined && /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= MAX_CREDITS)) {
    throw new ConfigError(`--${name} needs a whole number of credits from ${min} to 1,000,000,000.`);
  }
  return n;
}

/** `keys create --credits N [--plan P] [--scope S…]`: prints the new key on stdout. */
export async function keysCreate(args: Args, config: Config): Promise<void> {
  checkFlags(args, 'keys create', ['credits', 'plan', 'scope']);
  const initial = flag(args, 'credits');
  const plan = flag(args, 'plan');
  if (plan === '') throw new ConfigError('--plan needs a plan name.');
  const scopes = flagList(args, 'scope');
  const bad = scopes.find((s) => !isScope(s));
  if (bad) throw new ConfigError(`Unknown scope "${bad}".`);
  const request = {
    ...(initial === undefined ? {} : { credits: credits('credits', initial, 0) }),
    ...(plan === undefined ? {} : { plan }),
    ...(scopes.length > 0 ? { scopes: scopes as Scope[] } : {}),
  };
  const created = await withAccounts(config, (accounts) => accounts.createKey(request));
  process.stdout.write(`${created.api_key}\n`);
  process.stderr.write(
    `key_id ${created.key_id}  account_id ${created.account_id}  credits ${created.credits}  plan ${created.plan}\n`,
  );
}

/** `keys revoke KEY_ID`. */
export async function keysRevoke(args: Args, config: Config): Promise<void> {
  checkFlags(args, 'keys revoke', []);
  const keyId = args.positionals[2];
  if (!keyId) throw new ConfigError('Usage: tubescribe keys revoke KEY_ID');
  await withAccounts(config, (accounts) => accounts.revoke(keyId));
  process.stderr.write(`revoked ${keyId}\n`);
}

/** `credits grant ACCOUNT_ID (--amount N | --pack P)`: prints the new balance. */
export async function creditsGrant(args: Args, config: Config): Promise<void> {
  checkFlags(args, 'credits grant', ['amount', 'pack']);
  const accountId = args.positionals[2];
  const amount = flag(args, 'amount');
  const pack = flag(args, 'pack');
  if (!accountId || (amount === undefined) === (pack === undefined)) {
    throw new ConfigError('Usage: tubescribe credits grant ACCOUNT_ID (--amount N | --pack P)');
  }
  const grant = amount !== undefined ? { amount: credits('amount', amount, 1) } : { pack: pack ?? '' };
  const result = await withAccounts(config, (accounts) => accounts.grant(accountId, grant));
  process.stdout.write(`${JSON.stringify({ credits: result.credits, plan: result.plan })}\n`);
}

/** Prints an ApiError of a command as a one-line message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
