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
