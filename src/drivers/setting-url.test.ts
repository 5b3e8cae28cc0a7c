import { describe, expect, it } from 'vitest';
import { settingUrl } from './setting-url.ts';

describe('settingUrl', () => {
  it('parses a URL of an allowed scheme', () => {
    expect(settingUrl('X', 'smtp://u:p@host:25', ['smtp:'], 'an smtp:// URL').hostname).toBe('host');
  });

  it('names the variable and never echoes the value', () => {
    expect(() => settingUrl('X', 'not a url sekrit', ['smtp:'], 'an smtp:// URL')).toThrow(
      /^X: not a valid an smtp/,
    );
    expect(() => settingUrl('X', 'ftp://u:sekrit@h', ['smtp:'], 'an smtp:// URL')).toThrow(
      'X: expected an smtp:// URL, got ftp://',
    );
    expect(() => settingUrl('X', 'ftp://u:sekrit@h', ['smtp:'], 'an smtp:// URL')).not.toThrow(/sekrit/);
  });
});
