/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 for tests: plain text, AUTH allowed
 * without TLS, every accepted message kept in an inbox; plus a small parser for the raw messages.
 */
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** One message the server accepted. */
export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A running {@link startSmtpServer}. */
export interface SmtpTestServer {
  port: number;
  inbox: ReceivedMail[];
  /** `smtp://USER:PASS@127.0.0.1:PORT` with the server's credentials (percent-encoded). */
  url: string;
  /** Stops listening and ends open connections. Safe to call twice. */
  close(): Promise<void>;
}

/** Credentials and overrides of {@link startSmtpServer}. */
export interface SmtpTestOptions {
  /** Default `mailer`. */
  user?: string;
  /** Default `s3cr:et`. */
  pass?: string;
  /** Passed on to `SMTPServer` (win over the defaults). */
  overrides?: Partial<SMTPServerOptions>;
}

/** Starts an SMTP server on 127.0.0.1 (port 0) requiring AUTH with `user` / `pass`. */
export async function startSmtpServer(options: SmtpTestOptions = {}): Promise<SmtpTestServer> {
  const { user = 'mailer', pass = 's3cr:et', overrides = {} } = options;
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        inbox.push({
          from: from === false ? undefined : from.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback(null);
      });
    },
    ...overrides,
  });
  server.on('error', () => {}); // client-side failures (a refused certificate) surface here too
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  let closing: Promise<void> | undefined;
  return {
    port: address.port,
    inbox,
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closing;
    },
  };
}

/** Decodes quoted-printable text (soft line breaks and `=XX` escapes, UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(joined[i]));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * Splits a raw single-part message into unfolded headers (lower-cased names) and the body, the
 * body decoded when its Content-Transfer-Encoding is quoted-printable or base64.
 */
export function parseMail(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoded = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const body =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(encoded)
      : encoding === 'base64'
        ? Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoded;
  return { headers, body };
}
