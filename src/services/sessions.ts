/**
 * Dashboard sessions: server-side records in the KeyValue (`session:<sha256 of the id>`, with the
 * session's lifetime as storage TTL and its expiry checked against the Clock), behind an
 * unguessable id from the Random port. Signing in always starts a new session (a new id), so an id
 * planted before sign-in is worthless afterwards; signing out deletes the record.
 * @module
 */
import {
  isLive,
  isWellFormedToken,
  newSessionRecord,
  randomToken,
  type SessionRecord,
  type SessionSubject,
  sessionStorageKey,
} from '../core/session.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Random } from '../ports/random.ts';

/** A session as a request sees it: its id (the cookie's value) and record. */
export interface Session {
  id: string;
  record: SessionRecord;
}

/** Dependencies of {@link Sessions}. */
export interface SessionsDeps {
  kv: KeyValue;
  clock: Clock;
  random: Random;
}

/** Creates, reads, updates and ends sessions. */
export class Sessions {
  constructor(private readonly deps: SessionsDeps) {}

  /** A new session for `subject` with a fresh id and CSRF token. */
  async start(subject: SessionSubject): Promise<Session> {
    const { random, clock } = this.deps;
    const id = randomToken(random);
    const record = newSessionRecord(subject, randomToken(random), clock.now());
    await this.save(id, record);
    return { id, record };
  }

  /** A fresh unguessable token for a form (the operator's grant idempotency key). */
  token(): string {
    return randomToken(this.deps.random);
  }

  /** The live session of `id`, or undefined (malformed, unknown, ended or expired). */
  async get(id: string | undefined): Promise<Session | undefined> {
    if (!isWellFormedToken(id)) return undefined;
    const record = await this.deps.kv.get<SessionRecord>(await sessionStorageKey(id));
    if (!record || !isLive(record, this.deps.clock.now())) return undefined;
    return { id, record };
  }

  /** Replaces a visitor session's subject (the pending sign-up token), keeping id, token and expiry. */
  async update(session: Session, subject: SessionSubject): Promise<Session> {
    const record = { ...session.record, subject };
    await this.save(session.id, record);
    return { id: session.id, record };
  }

  /**
   * Signs in: ends the current session (if any) and starts a new one for `subject`, so the id the
   * browser held before is never the signed-in id.
   */
  async rotate(previous: Session | undefined, subject: SessionSubject): Promise<Session> {
    if (previous) await this.end(previous.id);
    return this.start(subject);
  }

  /** Ends a session at once (sign out). */
  async end(id: string): Promise<void> {
    if (isWellFormedToken(id)) await this.deps.kv.delete(await sessionStorageKey(id));
  }

  private async save(id: string, record: SessionRecord): Promise<void> {
    const ttlMs = record.expiresAt - this.deps.clock.now();
    await this.deps.kv.set(await sessionStorageKey(id), record, { ttlMs: Math.max(1, ttlMs) });
  }
}
