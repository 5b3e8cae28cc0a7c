/**
 * The Logger port: structured, levelled log lines.
 * @module
 */

/** Log levels, most verbose first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * A structured logger. Implementations write one JSON object per line (stderr by default).
 * Callers MUST NOT pass secrets (API keys, codes, tokens) or upstream bodies in `fields`.
 */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}
