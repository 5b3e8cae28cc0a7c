import { describe, expect, it } from 'vitest';
import { createTubescribe } from './app.ts';
import { createMemoryJobQueue } from './drivers/jobs-memory.ts';
import type { AppOptions } from './options.ts';
import type { JobQueue } from './ports/jobs.ts';
import { DEFAULT_CACHE_TTLS, DEFAULT_LIMITS, resolveSettings } from './settings.ts';

/** Options with a value where the type allows none (what a JavaScript caller can pass). */
const loose = (options: unknown): AppOptions => options as AppOptions;

describe('resolveSettings: numeric options', () => {
  it('resolves the defaults, and keeps valid values as given', () => {
    const defaults = resolveSettings({});
    expect(defaults.limits).toEqual(DEFAULT_LIMITS);
    expect(defaults.cache.ttl).toEqual(DEFAULT_CACHE_TTLS);
    expect(defaults.batch).toMatchObject({ instanceConcurrency: 10, deadlineMs: DEFAULT_LIMITS.deadlineMs });

    const given = resolveSettings({
      cache: { memoryBytes: 0, staleMs: 0, ttl: { player: 0 } },
      limits: { deadlineMs: 2500, reconcileIntervalMs: 0 },
      batch: { instanceConcurrency: 1, retentionMs: 0, webhookRetryDelaysMs: [0, 50] },
    });
    expect(given.cache).toMatchObject({
      memoryBytes: 0,
      staleMs: 0,
      ttl: { player: 0, captions: DEFAULT_CACHE_TTLS.captions },
    });
    expect(given.limits).toMatchObject({ deadlineMs: 2500, reconcileIntervalMs: 0 });
    expect(given.batch).toMatchObject({
      instanceConcurrency: 1,
      retentionMs: 0,
      webhookRetryDelaysMs: [0, 50],
      deadlineMs: 2500,
    });
  });

  it('merges a partial authFailures over the default instead of losing the other field', () => {
    const { limits } = resolveSettings(loose({ limits: { authFailures: { limit: 2 } } }));
    expect(limits.authFailures).toEqual({
      limit: 2,
      windowSeconds: DEFAULT_LIMITS.authFailures.windowSeconds,
    });
  });

  it.each([
    [
      { batch: { instanceConcurrency: Number.NaN } },
      'batch.instanceConcurrency must be a whole number of at least 0, got NaN',
    ],
    [
      { batch: { instanceConcurrency: -1 } },
      'batch.instanceConcurrency must be a whole number of at least 0, got -1',
    ],
    [
      { batch: { instanceConcurrency: 2.5 } },
      'batch.instanceConcurrency must be a whole number of at least 0, got 2.5',
    ],
    [
      { batch: { instanceConcurrency: '4' } },
      'batch.instanceConcurrency must be a whole number of at least 0, got "4"',
    ],
    [{ batch: { retentionMs: -1 } }, 'batch.retentionMs must be a finite number of at least 0, got -1'],
    [
      { batch: { webhookRetryDelaysMs: [] } },
      'batch.webhookRetryDelaysMs must be a list of at least one delay',
    ],
    [
      { batch: { webhookRetryDelaysMs: [10, Number.NaN] } },
      'batch.webhookRetryDelaysMs[1] must be a finite number of at least 0, got NaN',
    ],
    [{ limits: { deadlineMs: 0 } }, 'limits.deadlineMs must be a finite number above 0, got 0'],
    [
      { limits: { deadlineMs: Number.POSITIVE_INFINITY } },
      'limits.deadlineMs must be a finite number above 0, got Infinity',
    ],
    [{ limits: { maxBodyBytes: -5 } }, 'limits.maxBodyBytes must be a whole number of at least 1, got -5'],
    [
      { limits: { reservationTtlMs: null } },
      'limits.reservationTtlMs must be a finite number above 0, got null',
    ],
    [
      { limits: { reconcileIntervalMs: -1 } },
      'limits.reconcileIntervalMs must be a finite number of at least 0, got -1',
    ],
    [
      { limits: { cursorMaxAgeMs: Number.NaN } },
      'limits.cursorMaxAgeMs must be a finite number above 0, got NaN',
    ],
    [
      { limits: { authFailures: { limit: 0, windowSeconds: 60 } } },
      'limits.authFailures.limit must be a whole number of at least 1, got 0',
    ],
    [
      { limits: { authFailures: { limit: 5, windowSeconds: -60 } } },
      'limits.authFailures.windowSeconds must be a finite number above 0, got -60',
    ],
    [{ cache: { memoryBytes: 1.5 } }, 'cache.memoryBytes must be a whole number of at least 0, got 1.5'],
    [{ cache: { staleMs: -1 } }, 'cache.staleMs must be a finite number of at least 0, got -1'],
    [
      { cache: { ttl: { captions: Number.NaN } } },
      'cache.ttl.captions must be a finite number of at least 0, got NaN',
    ],
  ])('refuses %j with an error naming the option', (options, message) => {
    expect(() => resolveSettings(loose(options))).toThrow(`The option ${message}.`);
  });

  it.each([
    [
      { signup: { codeLength: 0 } },
      'The option signup.codeLength must be a whole number of at least 1, got 0.',
    ],
    [
      { signup: { lifetimeSeconds: Number.NaN } },
      'The option signup.lifetimeSeconds must be a finite number above 0, got NaN.',
    ],
    [
      { signup: { maxWrongCodes: 1.5 } },
      'The option signup.maxWrongCodes must be a whole number of at least 1, got 1.5.',
    ],
    [
      { signup: { freeCredits: -200 } },
      'The option signup.freeCredits must be a whole number of at least 0, got -200.',
    ],
    [
      { signup: { throttles: { address: [] } } },
      'The option signup.throttles.address needs at least one rule.',
    ],
    [
      { signup: { throttles: { network: [{ limit: 0, window: 3600 }] } } },
      "The option signup.throttles.network: a rule's limit must be a positive whole number, got 0.",
    ],
  ])('refuses the sign-up setting %j', (options, message) => {
    expect(() => resolveSettings(loose(options))).toThrow(message);
  });

  it('keeps valid sign-up settings and throttles as given', () => {
    const { signup } = resolveSettings({
      signup: { codeLength: 8, freeCredits: 0, throttles: { address: [{ limit: 2, window: 'utc-day' }] } },
    });
    expect(signup).toMatchObject({ codeLength: 8, freeCredits: 0, maxWrongCodes: 3 });
    expect(signup.throttles.address).toEqual([{ limit: 2, window: 'utc-day' }]);
    expect(signup.throttles.network).toEqual([{ limit: 20, window: 3600 }]);
  });

  it('takes instanceConcurrency 0 only with a job queue other instances share', () => {
    expect(resolveSettings({ batch: { instanceConcurrency: 0 } }).batch.instanceConcurrency).toBe(0);
    // The default in-process queue: nothing else would ever run the jobs.
    expect(() => createTubescribe({ batch: { instanceConcurrency: 0 } })).toThrow(
      /batch\.instanceConcurrency is 0 .* no batch job would ever run/,
    );
    expect(() =>
      createTubescribe({ jobs: createMemoryJobQueue(), batch: { instanceConcurrency: 0 } }),
    ).toThrow(/not shared/);
    const shared: JobQueue = { ...createMemoryJobQueue(), shared: true };
    expect(
      createTubescribe({ jobs: shared, batch: { instanceConcurrency: 0 } }).settings.batch,
    ).toMatchObject({
      instanceConcurrency: 0,
    });
  });

  it('refuses a bad option when tubescribe is created, before anything starts', () => {
    // The in-process job runner clamped NaN to NaN: every job stayed queued and never ran.
    expect(() =>
      createTubescribe(loose({ storage: 'memory', batch: { instanceConcurrency: Number.NaN } })),
    ).toThrow(/batch\.instanceConcurrency/);
  });
});
