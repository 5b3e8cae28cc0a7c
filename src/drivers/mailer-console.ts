/**
 * The development mailer (`TUBESCRIBE_MAILER=console`, the default): nothing is sent.
 *
 * It writes a sign-up code (and anything else a message says) to the log only when it is told that
 * the server listens on loopback only (`revealCodes: true`: `tubescribe serve` on 127.0.0.1 or
 * ::1, the default host), so a developer on the same machine can read the code there. Everywhere
 * else, the library default included, it logs that a mail was withheld, naming the address's domain
 * but never the subject or text (both carry the code), so nobody can finish a sign-up by reading
 * logs. A server that others reach needs an SMTP or HTTP mailer.
 * @module
 */
import type { Logger } from '../ports/logger.ts';
import type { Mailer, MailMessage } from '../ports/mailer.ts';

/** Where the console mailer writes: a structured logger, or a function taking one text block. */
export type ConsoleMailerSink = Logger | ((line: string) => void);

/** The text block written for a message when the sink is a plain function. */
export function formatConsoleMail(message: MailMessage): string {
  return [
    '----- tubescribe console mailer (development only: nothing was sent) -----',
    `To: ${message.to}`,
    `Subject: ${message.subject}`,
    '',
    message.text.replace(/\s+$/, ''),
    '----- end of message -----',
  ].join('\n');
}

/** Options of {@link createConsoleMailer}. */
export interface ConsoleMailerOptions {
  /**
   * Write the subject and text (the code) to the sink. Only for a server that listens on loopback
   * only. Default false: the message is withheld.
   */
  revealCodes?: boolean;
}

/** The log message of a withheld mail: what to configure. */
export const WITHHELD_MAIL: string =
  'mail not sent and not shown (console mailer): set TUBESCRIBE_MAILER to smtp://USER:PASS@HOST:PORT ' +
  'or an HTTP mail API to deliver sign-up codes';

/** `someone@example.org` → `***@example.org`: enough to tell which sign-up, not whose. */
function maskAddress(to: string): string {
  const at = to.lastIndexOf('@');
  return at < 0 ? '***' : `***${to.slice(at)}`;
}

/**
 * A {@link Mailer} that logs each message and resolves. With `revealCodes`: to a {@link Logger} as
 * one `warn` entry (`mail not sent (console mailer, development only)` with `to`, `subject` and
 * `text` fields; `warn` so the code is visible at the usual log levels), or to a function as one
 * text block (see {@link formatConsoleMail}). Without: one `warn` entry or line
 * ({@link WITHHELD_MAIL}) with the masked address only. It never rejects unless the sink throws.
 */
export function createConsoleMailer(sink: ConsoleMailerSink, options: ConsoleMailerOptions = {}): Mailer {
  const reveal = options.revealCodes === true;
  return {
    send(message: MailMessage): Promise<void> {
      try {
        if (!reveal) {
          const to = maskAddress(message.to);
          if (typeof sink === 'function') sink(`${WITHHELD_MAIL} (to ${to})`);
          else sink.log('warn', WITHHELD_MAIL, { mailer: 'console', to });
        } else if (typeof sink === 'function') {
          sink(formatConsoleMail(message));
        } else {
          sink.log('warn', 'mail not sent (console mailer, development only)', {
            mailer: 'console',
            to: message.to,
            subject: message.subject,
            text: message.text,
          });
        }
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
