/**
 * The development mailer (`TUBESCRIBE_MAILER=console`, the default): nothing is sent, the message
 * is written to the log (stderr) instead, so a developer can read the sign-up code there.
 *
 * DEVELOPMENT ONLY: it prints sign-up codes into the logs, which is the one deliberate exception
 * to the rule that logs carry no codes. A server that anyone else can reach must use an SMTP or
 * HTTP mailer, or anyone who can read the logs can sign up with any address.
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

/**
 * A {@link Mailer} that logs each message and resolves: to a {@link Logger} as one `warn` entry
 * (`mail not sent (console mailer, development only)` with `to`, `subject` and `text` fields; `warn`
 * so the code is visible at the usual log levels), or to a function as one text block (see
 * {@link formatConsoleMail}). It never rejects unless the sink throws.
 */
export function createConsoleMailer(sink: ConsoleMailerSink): Mailer {
  return {
    send(message: MailMessage): Promise<void> {
      try {
        if (typeof sink === 'function') {
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
