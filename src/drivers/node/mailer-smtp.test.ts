import { createServer, type Server, type Socket } from 'node:net';
import type { SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMail, type ReceivedMail, startSmtpServer } from '../../../test/helpers/smtp.ts';
import { createSmtpMailer, isLoopbackHost, parseSmtpUrl } from './mailer-smtp.ts';

const message = {
  to: 'agent@example.com',
  subject: 'Your tubescribe sign-up code',
  text: 'Your code is 042917. It expires in 10 minutes.',
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/** A real SMTP server on 127.0.0.1 (plain, AUTH allowed without TLS), user `mailer` / `s3cr:et`. */
async function startSmtp(
  overrides: Partial<SMTPServerOptions> = {},
): Promise<{ port: number; inbox: ReceivedMail[] }> {
  const server = await startSmtpServer({ overrides });
  cleanups.push(() => server.close());
  return { port: server.port, inbox: server.inbox };
}

/** A TCP server that accepts and then never says anything. */
async function startSilent(): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as { port: number }).port;
}

/** A port on 127.0.0.1 where nothing listens (bound once, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('SMTP mailer against a real SMTP server', () => {
  it('delivers the message with auth; the code can be read from the text body', async () => {
    const { port, inbox } = await startSmtp();
    const mailer = createSmtpMailer(`smtp://mailer:s3cr%3Aet@127.0.0.1:${port}`);
    await mailer.send(message);
    expect(inbox).toHaveLength(1);
    const mail = inbox[0]!;
    expect(mail.user).toBe('mailer');
    expect(mail.to).toEqual(['agent@example.com']);
    expect(mail.from).toBe('no-reply@localhost');
    const { headers, body } = parseMail(mail.raw);
    expect(headers.get('to')).toBe('agent@example.com');
    expect(headers.get('subject')).toBe('Your tubescribe sign-up code');
    expect(headers.get('from')).toBe('tubescribe <no-reply@localhost>');
    expect(body.match(/\b(\d{6})\b/)?.[1]).toBe('042917');
  });

  it('uses the From of the options, else of ?from=', async () => {
    const { port, inbox } = await startSmtp();
    const url = `smtp://mailer:s3cr%3Aet@127.0.0.1:${port}?from=${encodeURIComponent('Keys <keys@example.net>')}`;
    await createSmtpMailer(url).send(message);
    await createSmtpMailer(url, { from: 'Other <other@example.org>' }).send(message);
    expect(inbox.map((m) => parseMail(m.raw).headers.get('from'))).toEqual([
      'Keys <keys@example.net>',
      'Other <other@example.org>',
    ]);
    expect(inbox.map((m) => m.from)).toEqual(['keys@example.net', 'other@example.org']);
  });

  it('sends an html part when given', async () => {
    const { port, inbox } = await startSmtp();
    await createSmtpMailer(`smtp://mailer:s3cr%3Aet@127.0.0.1:${port}`).send({
      ...message,
      html: '<b>042917</b>',
    });
    expect(inbox[0]?.raw).toContain('multipart/alternative');
    expect(inbox[0]?.raw).toContain('<b>042917</b>');
  });

  it('rejects on an authentication failure, and nothing is delivered', async () => {
    const { port, inbox } = await startSmtp();
    const mailer = createSmtpMailer(`smtp://mailer:wrong@127.0.0.1:${port}`, { timeoutMs: 5_000 });
    await expect(mailer.send(message)).rejects.toThrow(/SMTP mailer:.*535/);
    expect(inbox).toHaveLength(0);
  });

  it('rejects when the server answers 5xx to DATA or refuses the recipient; nothing is delivered', async () => {
    const refuse = (code: number) => Object.assign(new Error('Refused'), { responseCode: code });
    const cases: [Partial<SMTPServerOptions>, RegExp][] = [
      [{ onData: (stream, _s, done) => stream.resume().on('end', () => done(refuse(554))) }, /554/],
      [{ onRcptTo: (_address, _s, done) => done(refuse(550)) }, /SMTP mailer:/],
    ];
    for (const [overrides, error] of cases) {
      const { port, inbox } = await startSmtp(overrides);
      await expect(
        createSmtpMailer(`smtp://mailer:s3cr%3Aet@127.0.0.1:${port}`).send(message),
      ).rejects.toThrow(error);
      expect(inbox).toHaveLength(0);
    }
  });

  it('rejects with tls=required when the server offers no STARTTLS', async () => {
    const { port, inbox } = await startSmtp();
    const mailer = createSmtpMailer(`smtp://mailer:s3cr%3Aet@127.0.0.1:${port}?tls=required`);
    await expect(mailer.send(message)).rejects.toThrow(/SMTP mailer:/);
    expect(inbox).toHaveLength(0);
  });

  it('speaks TLS first with smtps:// (and refuses the test server’s self-signed certificate)', async () => {
    const { port, inbox } = await startSmtp({ secure: true, disabledCommands: [] });
    const mailer = createSmtpMailer(`smtps://mailer:s3cr%3Aet@127.0.0.1:${port}`, { timeoutMs: 5_000 });
    await expect(mailer.send(message)).rejects.toThrow(/certificate/i);
    expect(inbox).toHaveLength(0);
  });

  it('rejects when nothing listens on the port', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${await deadPort()}`, { timeoutMs: 2_000 });
    await expect(mailer.send(message)).rejects.toThrow(/SMTP mailer:.*ECONNREFUSED/);
  });

  it('rejects within its timeout when the server never answers', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${await startSilent()}`, { timeoutMs: 300 });
    await expect(mailer.send(message)).rejects.toThrow(/SMTP mailer:/);
  });
});

describe('parseSmtpUrl', () => {
  it('reads host, port, TLS mode, credentials and From', () => {
    expect(parseSmtpUrl('smtp://u:p%40ss@mail.example.com')).toEqual({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      requireTLS: true,
      auth: { user: 'u', pass: 'p@ss' },
      from: 'tubescribe <no-reply@mail.example.com>',
    });
    expect(parseSmtpUrl('smtps://u:p@mail.example.com')).toMatchObject({
      port: 465,
      secure: true,
      requireTLS: false,
    });
    expect(parseSmtpUrl('smtp://mail.example.com:25')).toMatchObject({ port: 25, requireTLS: false });
    expect(parseSmtpUrl('smtp://u:p@relay.internal:25?tls=optional')).toMatchObject({ requireTLS: false });
    expect(parseSmtpUrl('smtp://u:p@127.0.0.1:2525')).toMatchObject({ requireTLS: false });
    expect(parseSmtpUrl('smtp://[::1]:2525?tls=required')).toMatchObject({ host: '::1', requireTLS: true });
  });

  it('throws clear errors without echoing secrets', () => {
    const cases = [
      'smtp://',
      'http://u:hunter2@x.example',
      'smtp://u:hunter2@x.example?pool=true',
      'smtp://x.example?tls=no',
    ];
    for (const url of cases) {
      expect(() => parseSmtpUrl(url), url).toThrow(/^TUBESCRIBE_MAILER: /);
      expect(() => parseSmtpUrl(url), url).not.toThrow(/hunter2/);
    }
  });

  it('recognises loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'example.com', '::2'].some(isLoopbackHost)).toBe(false);
  });
});
