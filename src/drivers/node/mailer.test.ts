import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { LogLevel } from '../../ports/logger.ts';
import { createMailer } from './mailer.ts';

const message = { to: 'agent@example.com', subject: 'Code', text: 'Your code is 123456.' };

describe('createMailer', () => {
  it('console → logs through the logger', async () => {
    const levels: LogLevel[] = [];
    const mailer = createMailer(' Console ', { log: (level) => levels.push(level) });
    await mailer.send(message);
    expect(levels).toEqual(['warn']);
  });

  it('smtp:// and smtps:// → SMTP mailers (created without connecting)', () => {
    const logger = { log: () => {} };
    expect(typeof createMailer('smtp://u:p@127.0.0.1:2525', logger).send).toBe('function');
    expect(typeof createMailer('SMTPS://u:p@mail.example.com', logger).send).toBe('function');
  });

  it('http(s):// → the HTTP mail-API mailer', async () => {
    let body = '';
    const server = createServer((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      await createMailer(
        `http://tok@127.0.0.1:${port}/send`,
        { log: () => {} },
        { from: 'a@b.example' },
      ).send(message);
      expect(JSON.parse(body)).toMatchObject({ from: 'a@b.example', to: 'agent@example.com' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('anything else → an Error for operators that does not repeat the value', () => {
    const logger = { log: () => {} };
    for (const spec of ['', 'sendmail', 'ses://key:hunter2@eu-west-1', 'smtp://', 'smtp://u:hunter2@h?x=1']) {
      expect(() => createMailer(spec, logger), spec).toThrow(/TUBESCRIBE_MAILER/);
      expect(() => createMailer(spec, logger), spec).not.toThrow(/hunter2/);
    }
  });
});
