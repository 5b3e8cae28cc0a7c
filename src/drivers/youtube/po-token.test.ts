/**
 * The bgutil PO-token provider client against a fake provider on 127.0.0.1 (a real HTTP server):
 * the request it sends, the answer shapes it reads, its cache, its timeout, and what it does when
 * the provider is down, slow or confused (no token, a warn log without secrets, a pause).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/fakes/clock.ts';
import {
  deadProviderUrl,
  type FakePotProvider,
  startFakePotProvider,
} from '../../../test/youtube/fake-pot-provider.ts';
import type { Logger, LogLevel } from '../../ports/logger.ts';
import { POT_DOWN_MS, PoTokenProvider, potProviderUrl, withPoToken } from './po-token.ts';

const VID = 'GJLlxj_dtq8';

function recordingLogger(): Logger & { lines: { level: LogLevel; message: string; fields?: unknown }[] } {
  const lines: { level: LogLevel; message: string; fields?: unknown }[] = [];
  return { lines, log: (level, message, fields) => lines.push({ level, message, fields }) };
}

let provider: FakePotProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

function client(url: string, options: { timeoutMs?: number; maxEntries?: number } = {}) {
  const clock = new ManualClock(Date.now());
  const logger = recordingLogger();
  const pot = new PoTokenProvider({ url: potProviderUrl(url), clock, logger, ...options });
  return { pot, clock, logger };
}

describe('withPoToken', () => {
  it('appends pot, potc=1 and c, keeping the signed parameters as they are', () => {
    const url =
      'https://www.youtube.com/api/timedtext?v=a&exp=xpe&sparams=ip,exp&signature=A.B&lang=en&fmt=json3';
    expect(withPoToken(url, 'Mn+T/k=', 'WEB')).toBe(`${url}&pot=Mn%2BT%2Fk%3D&potc=1&c=WEB`);
  });

  it('replaces an earlier pot, potc and c', () => {
    expect(withPoToken('https://x.youtube.com/t?pot=old&v=a&potc=0&c=ANDROID', 'new', 'WEB')).toBe(
      'https://x.youtube.com/t?v=a&pot=new&potc=1&c=WEB',
    );
  });
});

describe('potProviderUrl', () => {
  it('accepts http and https URLs', () => {
    expect(potProviderUrl('http://127.0.0.1:4416').port).toBe('4416');
    expect(potProviderUrl('https://pot.internal/').host).toBe('pot.internal');
  });

  it('refuses anything else, naming the variable and never echoing the value', () => {
    expect(() => potProviderUrl('localhost:4416')).toThrow(/^TUBESCRIBE_POT_PROVIDER: expected http/);
    expect(() => potProviderUrl('ftp://user:secret@host')).toThrow('TUBESCRIBE_POT_PROVIDER');
    expect(() => potProviderUrl('not a url')).toThrow('TUBESCRIBE_POT_PROVIDER: not a valid');
    try {
      potProviderUrl('ftp://user:s3cr3t@host');
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cr3t');
    }
  });
});

describe('PoTokenProvider', () => {
  it('POSTs /get_pot with the video as content_binding and reads poToken', async () => {
    provider = await startFakePotProvider();
    const { pot } = client(provider.url);
    expect(await pot.token(VID)).toBe(provider.tokenFor(VID));
    expect(provider.calls).toEqual([{ body: { content_binding: VID }, authorization: undefined }]);
  });

  it('caches a token per content binding until the expiry the provider reports', async () => {
    provider = await startFakePotProvider();
    provider.ttlMs = 10 * 60_000;
    const { pot, clock } = client(provider.url);
    await pot.token(VID);
    await pot.token(VID);
    await pot.token('otherVideo1');
    expect(provider.calls.map((c) => c.body.content_binding)).toEqual([VID, 'otherVideo1']);
    clock.advance(10 * 60_000 - 61_000);
    await pot.token(VID);
    expect(provider.calls).toHaveLength(2);
    clock.advance(2000); // less than a minute before the reported expiry: dropped
    await pot.token(VID);
    expect(provider.calls).toHaveLength(3);
  });

  it('concurrent calls for one binding share one provider call', async () => {
    provider = await startFakePotProvider();
    const { pot } = client(provider.url);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => pot.token(VID)));
    expect(new Set(tokens)).toEqual(new Set([provider.tokenFor(VID)]));
    expect(provider.calls).toHaveLength(1);
  });

  it('keeps a bounded number of tokens, oldest dropped first', async () => {
    provider = await startFakePotProvider();
    const { pot } = client(provider.url, { maxEntries: 2 });
    for (const v of ['a', 'b', 'c', 'a']) await pot.token(v);
    expect(provider.calls.map((c) => c.body.content_binding)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('reads a 0.x answer ({po_token}); without a reported expiry the token is not kept', async () => {
    provider = await startFakePotProvider('legacy');
    const { pot } = client(provider.url);
    expect(await pot.token(VID)).toBe(provider.tokenFor(VID));
    expect(await pot.token(VID)).toBe(provider.tokenFor(VID));
    expect(provider.calls).toHaveLength(2);
  });

  it.each(['error', 'garbage'] as const)(
    'a provider answering %s: no token, one warn, then left alone for a while',
    async (mode) => {
      provider = await startFakePotProvider(mode);
      const { pot, clock, logger } = client(provider.url);
      expect(await pot.token(VID)).toBeUndefined();
      expect(await pot.token('otherVideo1')).toBeUndefined();
      expect(provider.calls).toHaveLength(1);
      expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
      clock.advance(POT_DOWN_MS);
      provider.mode = 'ok';
      expect(await pot.token(VID)).toBe(provider.tokenFor(VID));
      expect(logger.lines.at(-1)).toMatchObject({
        level: 'info',
        message: 'PO-token provider answers again',
      });
    },
  );

  it('a provider that is down: no token, fast', async () => {
    const { pot, logger } = client(await deadProviderUrl());
    const began = Date.now();
    expect(await pot.token(VID)).toBeUndefined();
    expect(Date.now() - began).toBeLessThan(2000);
    expect(logger.lines).toMatchObject([{ level: 'warn' }]);
  });

  it('a provider that stalls: given up after the timeout', async () => {
    provider = await startFakePotProvider('stall');
    const { pot, logger } = client(provider.url, { timeoutMs: 150 });
    const began = Date.now();
    expect(await pot.token(VID)).toBeUndefined();
    expect(Date.now() - began).toBeLessThan(1500);
    expect(logger.lines).toMatchObject([{ level: 'warn', fields: { error: 'timeout' } }]);
  });

  it("the caller's own abort rejects the call and does not mark the provider down", async () => {
    provider = await startFakePotProvider('stall');
    const { pot } = client(provider.url, { timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = pot.token(VID, controller.signal);
    setTimeout(() => controller.abort(new Error('caller gone')), 30);
    await expect(call).rejects.toThrow('caller gone');
    provider.mode = 'ok';
    expect(await pot.token(VID)).toBe(provider.tokenFor(VID));
  });

  it('credentials in the URL go as Basic authentication; logs hold neither them nor tokens', async () => {
    provider = await startFakePotProvider();
    const url = provider.url.replace('http://', 'http://bg%40user:s3cr3t@');
    const { pot, logger } = client(`${url}/`);
    expect(await pot.token(VID)).toBe(provider.tokenFor(VID));
    expect(provider.calls[0]?.authorization).toBe(`Basic ${btoa('bg@user:s3cr3t')}`);
    provider.mode = 'error';
    await pot.token('otherVideo1');
    const logged = JSON.stringify(logger.lines);
    expect(logged).not.toContain('s3cr3t');
    expect(logged).not.toContain('MnT0k3n');
    expect(logged).not.toContain(provider.url);
  });

  it('ping answers the version, or undefined when the provider is down', async () => {
    provider = await startFakePotProvider();
    expect(await client(provider.url).pot.ping()).toBe('1.2.2');
    expect(await client(await deadProviderUrl()).pot.ping()).toBeUndefined();
  });
});
