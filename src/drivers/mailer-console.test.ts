import { describe, expect, it } from 'vitest';
import type { LogLevel } from '../ports/logger.ts';
import { createConsoleMailer, formatConsoleMail, WITHHELD_MAIL } from './mailer-console.ts';

const message = { to: 'Agent@example.com', subject: 'Your tubescribe code', text: 'Your code is 012345.\n' };

describe('console mailer', () => {
  it('writes one log entry with to, subject and text through a Logger when told to reveal codes', async () => {
    const entries: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
    const mailer = createConsoleMailer(
      {
        log: (level, msg, fields) => {
          entries.push(fields === undefined ? { level, message: msg } : { level, message: msg, fields });
        },
      },
      { revealCodes: true },
    );
    await expect(mailer.send(message)).resolves.toBeUndefined();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.level).toBe('warn');
    expect(entries[0]?.message).toMatch(/development only/);
    expect(entries[0]?.fields).toMatchObject({
      to: 'Agent@example.com',
      subject: 'Your tubescribe code',
      text: 'Your code is 012345.\n',
    });
  });

  it('writes one text block through a function', async () => {
    const lines: string[] = [];
    await createConsoleMailer((line) => lines.push(line), { revealCodes: true }).send(message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(formatConsoleMail(message));
    expect(lines[0]).toContain('To: Agent@example.com');
    expect(lines[0]).toContain('Subject: Your tubescribe code');
    expect(lines[0]).toMatch(/\b012345\b/);
  });

  for (const options of [{}, { revealCodes: false }]) {
    it(`withholds subject, text and mailbox by default (${JSON.stringify(options)})`, async () => {
      const written: string[] = [];
      const entries: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
      const logger = {
        log: (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
          entries.push(fields === undefined ? { level, message: msg } : { level, message: msg, fields });
        },
      };
      await createConsoleMailer(logger, options).send(message);
      await createConsoleMailer((line) => written.push(line), options).send(message);
      expect(entries).toEqual([
        { level: 'warn', message: WITHHELD_MAIL, fields: { mailer: 'console', to: '***@example.com' } },
      ]);
      expect(WITHHELD_MAIL).toMatch(/TUBESCRIBE_MAILER/);
      const everything = JSON.stringify([entries, written]);
      expect(everything).not.toMatch(/012345/);
      expect(everything).not.toMatch(/Agent@/);
      expect(written).toEqual([`${WITHHELD_MAIL} (to ***@example.com)`]);
    });
  }

  it('rejects when the sink throws', async () => {
    const mailer = createConsoleMailer(() => {
      throw new Error('stderr closed');
    });
    await expect(mailer.send(message)).rejects.toThrow('stderr closed');
  });
});
