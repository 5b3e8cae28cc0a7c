/**
 * The ports: the interfaces and shared types that the core, the services and the drivers meet
 * at. Types only, no code.
 * @module
 */
export type { Clock } from './clock.ts';
export type { Lookup, MxRecord, Resolver } from './dns.ts';
export type { FetchLike, ProxyFetch } from './fetch.ts';
export type { EnqueueOptions, JobQueue, QueuePayload, WorkOptions } from './jobs.ts';
export type { KeyValue, SetOptions } from './kv.ts';
export type { AccountCredits, Ledger, RateDecision, RateRule, ReserveResult, RuleState } from './ledger.ts';
export type { Logger, LogLevel } from './logger.ts';
export type { Mailer, MailMessage } from './mailer.ts';
export type { Random } from './random.ts';
export type * from './upstream.ts';
