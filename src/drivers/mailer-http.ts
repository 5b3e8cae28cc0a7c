/**
 * The HTTP mail-API mailer (`TUBESCRIBE_MAILER=https://TOKEN@mail.example.com/send`) over ofetch.
 *
 * Each message is one request, so an operator can point it at a small relay (a serverless
 * function that forwards to their provider's API):
 * ```
 * POST https://mail.example.com/send          (the URL without its userinfo; its query is kept)
 * Authorization: Bearer TOKEN                 (the percent-decoded userinfo; omitted when absent)
 * Content-Type: application/json
 * Idempotency-Key: <one random UUID per message, the same on a retry>
 *
 * { "from": "tubescribe <no-reply@mail.example.com>", "to": "agent@example.com",
 *   "subject": "…", "text": "…", "html": "…" }   (html only when the message has one)
 * ```
 * Any 2xx answer means "accepted for delivery"; every other status (redirects are not followed),
 * a network error or the timeout rejects. A network error (no HTTP answer at all, such as a
 * keep-alive connection the relay had closed) is retried once within the same deadline, with the
 * same Idempotency-Key; an HTTP answer is never retried. `https://` is the norm; `http://` is
 * accepted for a relay on a trusted network or loopback (tests).
 *
 * `from`: the `from` option, else `?from=` in the URL (removed from the request URL), else
 * `tubescribe <no-reply@HOST>` with the API's host.
 * @module
 */
import { ofetch } from 'ofetch';
import type { Mailer, MailMessage } from '../ports/mailer.ts';
import { settingUrl } from './setting-url.ts';

/** Options of {@link createHttpMailer}. */
export interface HttpMailerOptions {
  /** The `from` field; overrides `?from=` in the URL. */
  from?: string;
  /** Upper bound of one `send` in ms, the retry included. Default 10,000. */
  timeoutMs?: number;
}

/** The JSON body of each request (see the module docs). */
export interface HttpMailPayload {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** What {@link parseHttpMailerUrl} reads from the URL. */
export interface HttpMailerSettings {
  /** The request URL: no userinfo, no `from` parameter. */
  endpoint: string;
  /** The bearer token, when the URL has userinfo. */
  token?: string;
  from: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The default From of the HTTP and SMTP mailers: `tubescribe <no-reply@HOST>`, HOST being the
 * mail API's or SMTP server's host name, or `localhost` when that is an IP address.
 */
export function defaultFrom(hostname: string): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const isIp = host.includes(':') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host);
  return `tubescribe <no-reply@${isIp ? 'localhost' : host}>`;
}

/**
 * Reads an `http(s)://[TOKEN@]host/path[?from=…]` URL.
 * @throws Error with an operator-readable message (never echoing the token).
 */
export function parseHttpMailerUrl(url: string, options: HttpMailerOptions = {}): HttpMailerSettings {
  const parsed = settingUrl('TUBESCRIBE_MAILER', url, ['https:', 'http:'], 'an http(s):// mail API URL');
  const userinfo =
    decodeURIComponent(parsed.username) + (parsed.password ? `:${decodeURIComponent(parsed.password)}` : '');
  const from = options.from ?? parsed.searchParams.get('from') ?? defaultFrom(parsed.hostname);
  parsed.searchParams.delete('from');
  parsed.username = '';
  parsed.password = '';
  const settings: HttpMailerSettings = { endpoint: parsed.href, from };
  if (userinfo !== '') settings.token = userinfo;
  return settings;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * A {@link Mailer} that POSTs each message as JSON to an HTTP mail API (see the module docs):
 * resolves on a 2xx answer, rejects otherwise. Error messages name the endpoint without its query,
 * never the token.
 * @throws Error at creation when the URL is invalid.
 */
export function createHttpMailer(url: string, options: HttpMailerOptions = {}): Mailer {
  const settings = parseHttpMailerUrl(url, options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { origin, pathname } = new URL(settings.endpoint);
  const target = `POST ${origin}${pathname}`; // no query: it might hold a key
  return {
    async send(message: MailMessage): Promise<void> {
      const body: HttpMailPayload = {
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      };
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/plain, */*',
        'idempotency-key': crypto.randomUUID(),
      };
      if (settings.token !== undefined) headers.authorization = `Bearer ${settings.token}`;
      const signal = AbortSignal.timeout(timeoutMs);
      for (let attempt = 1; ; attempt++) {
        let response: Response & { _data?: unknown };
        try {
          response = await ofetch.raw(settings.endpoint, {
            method: 'POST',
            body,
            headers,
            signal,
            redirect: 'manual',
            retry: false,
            ignoreResponseError: true,
            responseType: 'text',
          });
        } catch (error) {
          if (signal.aborted) {
            throw new Error(`HTTP mailer: ${target} timed out after ${timeoutMs} ms`, { cause: error });
          }
          if (attempt < 2) continue;
          const reason =
            error instanceof Error ? (error.cause instanceof Error ? error.cause : error).message : '';
          throw new Error(`HTTP mailer: ${target} failed: ${oneLine(reason)}`, { cause: error });
        }
        if (response.status >= 200 && response.status < 300) return;
        const detail = typeof response._data === 'string' ? oneLine(response._data) : '';
        throw new Error(`HTTP mailer: ${target} answered ${response.status}${detail ? `: ${detail}` : ''}`);
      }
    },
  };
}
