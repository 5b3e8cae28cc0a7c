/**
 * Shared helpers of the sign-up suites: a mailer that keeps every message (and can fail or wait),
 * an app with it, and JSON POSTs to the sign-up routes from a chosen client address.
 */
import { expect } from 'vitest';
import { parseEmail } from '../../src/core/email.ts';
import type { SignupThrottles } from '../../src/core/signup-settings.ts';
import type { Mailer, MailMessage } from '../../src/ports/mailer.ts';
import { type TestApp, type TestAppOptions, testApp } from '../helpers/app.ts';

/** The default client address of {@link SignupHarness.post}. */
export const DEFAULT_IP = '192.0.2.1';

/** Throttles no test reaches by accident (a test about throttles sets its own). */
export const HIGH_THROTTLES: SignupThrottles = {
  address: [{ limit: 1_000_000, window: 3600 }],
  network: [{ limit: 1_000_000, window: 3600 }],
  verifyNetwork: [{ limit: 1_000_000, window: 3600 }],
  domainGrants: [{ limit: 1_000_000, window: 'utc-day' }],
};

/** The 6-digit code of a sign-up mail's text. */
export function codeInText(text: string): string {
  const match = /code is (\d{6})\b/.exec(text);
  if (!match) throw new Error(`no code in mail: ${text}`);
  return match[1]!;
}

/** A Mailer that keeps every message; `failWith` makes `send` reject, `delayMs` makes it wait. */
export class CapturingMailer implements Mailer {
  readonly messages: MailMessage[] = [];
  failWith: Error | undefined;
  delayMs = 0;
  /** Calls of `send`, failed ones included. */
  attempts = 0;

  async send(message: MailMessage): Promise<void> {
    this.attempts++;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failWith) throw this.failWith;
    this.messages.push(message);
  }

  /** The code of the last message sent to `to`. */
  codeFor(to: string): string {
    const message = this.messages.findLast((m) => m.to === to);
    if (!message) throw new Error(`no mail to ${to}`);
    return codeInText(message.text);
  }
}

/** An app with a {@link CapturingMailer}, and sign-up calls. */
export interface SignupHarness extends TestApp {
  mailer: CapturingMailer;
  /** A JSON POST (a string body is sent as is) from client address `ip`. */
  post(path: string, body: unknown, ip?: string): Promise<Response>;
  signup(email: unknown, ip?: string): Promise<Response>;
  verify(token: unknown, code: unknown, ip?: string): Promise<Response>;
  /** Signs `email` up (asserting 200) and returns the token and the mailed code. */
  start(email: string, ip?: string): Promise<{ token: string; code: string }>;
  /** A whole sign-up (asserting 201); returns the verify body. */
  complete(email: string, ip?: string): Promise<VerifyBody>;
}

/** The verify response (201). */
export interface VerifyBody {
  status: string;
  api_key: string;
  credits: number;
  limits: { requests_per_second: number; requests_per_day: number };
  next: string;
  example_request: string;
  docs: string;
  notes: string;
}

/** The environment the Node adapter passes, with the client address. */
export function nodeEnv(ip: string): { incoming: { socket: { remoteAddress: string } } } {
  return { incoming: { socket: { remoteAddress: ip } } };
}

/**
 * A test app (see `testApp`) with a {@link CapturingMailer} (unless `mailer` is given) and, unless
 * `signup.throttles` says otherwise, {@link HIGH_THROTTLES}.
 */
export async function signupHarness(
  options: TestAppOptions & { mailer?: Mailer } = {},
): Promise<SignupHarness> {
  const mailer = options.mailer instanceof CapturingMailer ? options.mailer : new CapturingMailer();
  const t = await testApp({
    ...options,
    mailer: options.mailer ?? mailer,
    signup: { ...options.signup, throttles: { ...HIGH_THROTTLES, ...options.signup?.throttles } },
  });
  const post = (path: string, body: unknown, ip = DEFAULT_IP) =>
    Promise.resolve(
      t.ts.app.request(
        path,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        },
        nodeEnv(ip),
      ),
    );
  const signup = (email: unknown, ip?: string) => post('/api/agent/signup', { email }, ip);
  const verify = (token: unknown, code: unknown, ip?: string) =>
    post('/api/agent/verify', { signup_token: token, code }, ip);
  const start = async (email: string, ip?: string) => {
    const res = await signup(email, ip);
    const text = await res.text();
    expect({ status: res.status, text }).toMatchObject({ status: 200 });
    const token = (JSON.parse(text) as { signup_token: string }).signup_token;
    return { token, code: mailer.codeFor(parseEmail(email).address) };
  };
  const complete = async (email: string, ip?: string) => {
    const { token, code } = await start(email, ip);
    const res = await verify(token, code, ip);
    const text = await res.text();
    expect({ status: res.status, text }).toMatchObject({ status: 201 });
    return JSON.parse(text) as VerifyBody;
  };
  return { ...t, mailer, post, signup, verify, start, complete };
}

/** Every value a KeyValue's `list('')` holds, as `[key, JSON]` pairs. */
export async function dumpKv(kv: {
  list(prefix: string): Promise<string[]>;
  get<T>(key: string): Promise<T | undefined>;
}): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const key of (await kv.list('')).sort()) out.push([key, JSON.stringify(await kv.get(key)) ?? '']);
  return out;
}

/** How many API keys are stored (`apikey:<digest>` documents). */
export async function storedKeys(t: TestApp): Promise<number> {
  return (await t.ts.ports.kv.list('apikey:')).length;
}

/** The median of `values` (not empty). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
