import type { Hono } from 'hono';
import { buildHttpApp } from './http/app.ts';

/** Options of {@link createApp}. Grows as the API does. */
export interface AppOptions {
  /** Reserved for the settings of later issues. */
  readonly [key: string]: unknown;
}

/**
 * Builds the tubescribe HTTP application: a Hono app whose `fetch(Request) → Response` every
 * runtime adapter mounts.
 */
export function createApp(_options: AppOptions = {}): Hono {
  return buildHttpApp();
}
