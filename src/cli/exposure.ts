/**
 * Safe defaults for a server others can reach. The console mailer (the default) delivers nothing,
 * so on a server that listens on loopback only it shows sign-up codes in the log for the developer
 * at the keyboard; on any other address that would hand every sign-up to whoever reads the logs.
 * There, the codes are withheld and agent sign-up starts `off` (an operator who sets
 * `TUBESCRIBE_SIGNUP=on` is overruled too: codes that reach nobody make a sign-up that cannot
 * finish), with a start-up warning that says how to configure a real mailer.
 * @module
 */
import { isIP } from 'node:net';

/** Whether `host` is a loopback address or name (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^::ffff:127\./.test(bare);
}

/** Whether `TUBESCRIBE_MAILER` names the console mailer. */
export function isConsoleMailer(mailer: string): boolean {
  return mailer.trim().toLowerCase() === 'console';
}

/** What the mailer and listening address allow. */
export interface Exposure {
  /** The console mailer may write codes to the log (loopback only). */
  revealCodes: boolean;
  /** The sign-up mode to run with. */
  signup: 'on' | 'paused' | 'off';
  /** The start-up warning to print, when sign-up was switched off for safety. */
  warning?: string;
}

/** The safe sign-up mode and code visibility for a mailer, a listening host and the requested mode. */
export function exposureOf(mailer: string, host: string, requested: 'on' | 'paused' | 'off'): Exposure {
  if (!isConsoleMailer(mailer)) return { revealCodes: false, signup: requested };
  if (isLoopbackHost(host)) return { revealCodes: true, signup: requested };
  if (requested === 'off') return { revealCodes: false, signup: 'off' };
  return {
    revealCodes: false,
    signup: 'off',
    warning:
      `Agent sign-up is OFF: this server listens on ${host}, not on loopback only, and TUBESCRIBE_MAILER ` +
      'is the console mailer, which delivers no mail (and never logs codes here). To turn sign-up on, ' +
      'set TUBESCRIBE_MAILER=smtp://USER:PASS@HOST:587 (or smtps://…:465, or an HTTP mail API ' +
      'https://TOKEN@mail.example.com/send) and restart; TUBESCRIBE_SIGNUP=on alone does not.',
  };
}
