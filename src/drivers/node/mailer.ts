/**
 * Chooses the sign-up mailer from `TUBESCRIBE_MAILER`.
 * @module
 */
import type { Logger } from '../../ports/logger.ts';
import type { Mailer } from '../../ports/mailer.ts';
import { createConsoleMailer } from '../mailer-console.ts';
import { createHttpMailer } from '../mailer-http.ts';
import { createSmtpMailer } from './mailer-smtp.ts';

/** Options passed on to the SMTP and HTTP mailers. */
export interface MailerSpecOptions {
  /** The From address; overrides `?from=` in the URL. */
  from?: string;
  /** Upper bound of one send in ms (default 10,000). */
  timeoutMs?: number;
  /**
   * The console mailer logs the code (subject and text) only when this is true: pass it only for a
   * server that listens on loopback only. Default false (the message is withheld).
   */
  revealCodes?: boolean;
}

/**
 * The mailer a `TUBESCRIBE_MAILER` value names:
 * - `console`: the development mailer: logs the message, code included, through `logger` when
 *   `options.revealCodes` (loopback-only servers), else logs only that a mail was withheld;
 * - `smtp://USER:PASS@HOST:PORT` or `smtps://…`: SMTP (see `mailer-smtp.ts`);
 * - `https://TOKEN@HOST/PATH` or `http://…`: a JSON mail API or relay (see `mailer-http.ts`).
 *
 * The scheme is matched case-insensitively; surrounding whitespace is ignored.
 * @throws Error naming the accepted forms when `spec` is none of them or its URL is invalid. The
 * message never repeats the value, which may hold a password or token.
 */
export function createMailer(spec: string, logger: Logger, options: MailerSpecOptions = {}): Mailer {
  const value = spec.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (value.toLowerCase() === 'console') {
    return createConsoleMailer(logger, { revealCodes: options.revealCodes === true });
  }
  if (scheme === 'smtp' || scheme === 'smtps') return createSmtpMailer(value, options);
  if (scheme === 'http' || scheme === 'https') return createHttpMailer(value, options);
  const got = value === '' ? 'an empty value' : scheme ? `a ${scheme}: URL` : 'an unknown value';
  throw new Error(
    `TUBESCRIBE_MAILER must be "console", smtp://USER:PASS@HOST:PORT, smtps://USER:PASS@HOST:PORT ` +
      `or an http(s):// mail API URL (https://TOKEN@HOST/PATH); got ${got}`,
  );
}
