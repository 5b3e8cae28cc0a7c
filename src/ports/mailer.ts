/**
 * The Mailer port: sending one message (the sign-up codes).
 * @module
 */

/** One message to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail (sign-up codes).
 * `send` MUST resolve only once the message was accepted for delivery and MUST reject on any
 * failure, so the caller can answer `email_failed` and change no state.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
