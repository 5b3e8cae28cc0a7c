/**
 * The SMTP mailer (`TUBESCRIBE_MAILER=smtp://…` or `smtps://…`) over nodemailer.
 *
 * URL: `smtp://USER:PASS@HOST:PORT` (port 587 by default, STARTTLS when the server offers it) or
 * `smtps://USER:PASS@HOST:PORT` (TLS from the first byte, port 465 by default). User and password
 * are percent-decoded. Query parameters:
 * - `from=…`: the From header (default `tubescribe <no-reply@HOST>`, HOST being the SMTP host;
 *   `localhost` when the host is an IP address). The `from` option wins over the URL.
 * - `tls=required|optional`: `required` makes STARTTLS mandatory (fail rather than send in clear);
 *   it is the default when credentials are given and the host is not a loopback address, so a
 *   password never crosses a network unencrypted. `optional` allows an internal relay without TLS.
 * Certificates are verified (Node's defaults).
 *
 * Decisions: no connection pooling, one connection per message. Sign-up mail is rare, a pooled
 * connection would sit idle until the server drops it, and a fresh connection gives every send the
 * same, simple failure semantics. No retries: the caller answers `email_failed` and the client may
 * sign up again.
 * @module
 */
import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../../ports/mailer.ts';
import { defaultFrom } from '../mailer-http.ts';
import { settingUrl } from '../setting-url.ts';

/** Options of {@link createSmtpMailer}. */
export interface SmtpMailerOptions {
  /** The From header; overrides `?from=` in the URL. */
  from?: string;
  /** Upper bound of one `send` in ms (connect, greeting, every reply, and the whole). Default 10,000. */
  timeoutMs?: number;
}

/** The connection settings read from an SMTP URL (see the module docs). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS (`smtps://`). */
  secure: boolean;
  /** STARTTLS is mandatory. */
  requireTLS: boolean;
  auth?: { user: string; pass: string };
  from: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** True for `localhost`, 127.0.0.0/8 and `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * Reads an `smtp://` / `smtps://` URL into {@link SmtpSettings}.
 * @throws Error with an operator-readable message (never echoing the password).
 */
export function parseSmtpUrl(url: string, options: SmtpMailerOptions = {}): SmtpSettings {
  const parsed = settingUrl('TUBESCRIBE_MAILER', url, ['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL');
  if (parsed.hostname === '') throw new Error('TUBESCRIBE_MAILER: the SMTP URL has no host');
  for (const key of parsed.searchParams.keys()) {
    if (key !== 'from' && key !== 'tls') {
      throw new Error(`TUBESCRIBE_MAILER: unknown SMTP URL parameter "${key}" (allowed: from, tls)`);
    }
  }
  const tls = parsed.searchParams.get('tls');
  if (tls !== null && tls !== 'required' && tls !== 'optional') {
    throw new Error('TUBESCRIBE_MAILER: tls= must be "required" or "optional"');
  }
  const secure = parsed.protocol === 'smtps:';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  const hasAuth = user !== '' || pass !== '';
  const settings: SmtpSettings = {
    host,
    port: parsed.port === '' ? (secure ? 465 : 587) : Number(parsed.port),
    secure,
    requireTLS: !secure && (tls === 'required' || (tls === null && hasAuth && !isLoopbackHost(host))),
    from: options.from ?? parsed.searchParams.get('from') ?? defaultFrom(parsed.hostname),
  };
  if (hasAuth) settings.auth = { user, pass };
  return settings;
}

function failure(error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`SMTP mailer: ${reason}`, { cause: error });
}

/**
 * A {@link Mailer} over SMTP. `send` resolves once the server answered 2xx to the message data
 * (and accepted the recipient); it rejects on a refused or dropped connection, a failed TLS
 * upgrade, an authentication failure, any 4xx/5xx reply, a rejected recipient, or when
 * `timeoutMs` passes.
 * @throws Error at creation when the URL is invalid (see {@link parseSmtpUrl}).
 */
export function createSmtpMailer(url: string, options: SmtpMailerOptions = {}): Mailer {
  const settings = parseSmtpUrl(url, options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transportOptions = {
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTLS,
    ...(settings.auth ? { auth: settings.auth } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    socketCloseTimeout: 0,
  };
  // nodemailer is an optional peer dependency: loaded on the first message, so that importing
  // tubescribe/node never needs it.
  let transport: Promise<Transporter> | undefined;
  const transporter = (): Promise<Transporter> => {
    transport ??= import('nodemailer').then(
      (nodemailer) => nodemailer.createTransport(transportOptions),
      (cause: unknown) => {
        transport = undefined;
        throw new Error('install nodemailer to send mail over SMTP (npm install nodemailer)', { cause });
      },
    );
    return transport;
  };
  return {
    async send(message: MailMessage): Promise<void> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const sending = (await transporter()).sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
        });
        sending.catch(() => {}); // a late failure after the deadline is already reported
        const info = await Promise.race([sending, deadline]);
        if ((info.rejected ?? []).length > 0 || (info.accepted ?? []).length === 0) {
          throw new Error('the server did not accept the recipient');
        }
      } catch (error) {
        throw failure(error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
