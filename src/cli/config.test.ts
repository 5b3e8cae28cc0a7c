import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';
import { loadConfig } from './config.ts';

const load = (env: Record<string, string>) =>
  loadConfig(parseArgs(['serve']), { TUBESCRIBE_STORAGE: 'memory', ...env });

describe('TUBESCRIBE_PUBLIC_URL', () => {
  it.each(['ftp://x', 'notaurl', 'https://', 'https://api.example.com/?q=1', '//api.example.com'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => load({ TUBESCRIBE_PUBLIC_URL: value })).toThrow(
        /TUBESCRIBE_PUBLIC_URL must be an http\(s\) URL/,
      );
    },
  );

  it.each(['https://api.example.com', 'http://127.0.0.1:8787', 'https://example.org/yt/'])(
    'takes %s',
    (value) => {
      expect(load({ TUBESCRIBE_PUBLIC_URL: value }).publicUrl).toBe(value);
    },
  );
});

describe('TUBESCRIBE_PROXY, TUBESCRIBE_YOUTUBE_ORIGIN and TUBESCRIBE_UPSTREAM', () => {
  it('refuses what is not an http(s) URL, naming the variable', () => {
    expect(() => load({ TUBESCRIBE_PROXY: 'http://ok.example:8080,notaurl' })).toThrow(
      /TUBESCRIBE_PROXY must be an http\(s\) URL.*"notaurl"/,
    );
    expect(() => load({ TUBESCRIBE_YOUTUBE_ORIGIN: 'notaurl' })).toThrow(
      /TUBESCRIBE_YOUTUBE_ORIGIN must be an http\(s\) URL/,
    );
  });

  it('takes proxies and an origin that are URLs', () => {
    const config = load({
      TUBESCRIBE_PROXY: 'http://a.example:8080, https://u:p@b.example:443',
      TUBESCRIBE_YOUTUBE_ORIGIN: 'http://127.0.0.1:9000',
    });
    expect(config.proxies).toEqual(['http://a.example:8080', 'https://u:p@b.example:443']);
    expect(config.youtubeOrigin).toBe('http://127.0.0.1:9000');
  });

  it('refuses a fixtures folder that is not there', () => {
    expect(() => load({ TUBESCRIBE_UPSTREAM: 'fixtures:/nonexistent/tubescribe' })).toThrow(
      /there is no folder \/nonexistent\/tubescribe/,
    );
    expect(load({ TUBESCRIBE_UPSTREAM: 'fixtures:fixtures/demo' }).upstream).toEqual({
      kind: 'fixtures',
      dir: 'fixtures/demo',
    });
  });
});

describe('TUBESCRIBE_BATCH_CONCURRENCY', () => {
  it('is unset by default (the app default, 10) and takes a whole number', () => {
    expect(load({}).batchConcurrency).toBeUndefined();
    expect(load({ TUBESCRIBE_BATCH_CONCURRENCY: '4' }).batchConcurrency).toBe(4);
    expect(
      loadConfig(parseArgs(['serve', '--batch-concurrency', '0']), {
        TUBESCRIBE_STORAGE: 'redis://127.0.0.1:6379',
      }).batchConcurrency,
    ).toBe(0);
  });

  it.each(['-1', '2.5', 'ten', '1001'])('refuses %j, naming the variable', (value) => {
    expect(() => load({ TUBESCRIBE_BATCH_CONCURRENCY: value })).toThrow(
      /TUBESCRIBE_BATCH_CONCURRENCY must be a whole number from 0 to 1000/,
    );
  });

  it.each(['memory', 'fs:/tmp/tubescribe-config-test'])(
    'refuses 0 on %s storage: nothing would run the jobs',
    (storage) => {
      expect(() => load({ TUBESCRIBE_STORAGE: storage, TUBESCRIBE_BATCH_CONCURRENCY: '0' })).toThrow(
        /TUBESCRIBE_BATCH_CONCURRENCY=0 .* needs redis:\/\/ storage/,
      );
    },
  );
});
