import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { ParseError } from './json.ts';
import { child, decodeEntities, parseChannelFeed, parseXml } from './parse-rss.ts';

const feedXml = readFileSync(new URL('./fixtures/feed-channel.xml', import.meta.url), 'utf8');

describe('parseChannelFeed', () => {
  it('reads the channel and its entries', () => {
    expect(parseChannelFeed(feedXml)).toEqual({
      channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
      title: 'Science Cat & Friends',
      videos: [
        {
          videoId: 'vid00000001',
          title: 'Why cats <3 boxes – a "study"',
          publishedAt: Date.UTC(2026, 0, 22, 15, 1, 42) / 1000,
          viewCount: 98_765,
          thumbnails: [{ url: 'https://i1.ytimg.com/vi/vid00000001/hqdefault.jpg', width: 480, height: 360 }],
        },
        {
          videoId: 'sht00000001',
          title: 'Cat vs cucumber',
          publishedAt: Date.UTC(2026, 0, 1, 0, 59, 59) / 1000,
          viewCount: 0,
          thumbnails: [{ url: 'https://i2.ytimg.com/vi/sht00000001/hqdefault.jpg', width: 480, height: 360 }],
        },
      ],
    });
  });

  it('prefixes the bare feed-level channel id when no link carries the full one', () => {
    const xml = '<feed><yt:channelId>aaaaaaaaaaaaaaaaaaaaaa</yt:channelId><title>T</title></feed>';
    expect(parseChannelFeed(xml)).toEqual({ channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa', title: 'T', videos: [] });
  });

  it('reports a removed channel (404) as channel_not_found', () => {
    const html =
      '<!DOCTYPE html><html lang=en><title>Error 404 (Not Found)!!1</title><p>That’s an error.</p>';
    expect(() => parseChannelFeed(html)).toThrow(ApiError);
    expect(() => parseChannelFeed('', { status: 404 })).toThrow(
      expect.objectContaining({ code: 'channel_not_found' }),
    );
  });

  it('rejects other bodies', () => {
    expect(() => parseChannelFeed('<html><title>Sorry</title></html>')).toThrow(ParseError);
    expect(() => parseChannelFeed('<feed><title>No id</title></feed>')).toThrow(ParseError);
  });
});

describe('tiny XML reader', () => {
  it.each([
    ['&amp;&lt;&gt;&quot;&apos;', '&<>"\''],
    ['&#8211;&#x2014;&#X41;', '–—A'],
    ['&nbsp; &unknown; & alone', '&nbsp; &unknown; & alone'],
    ['&#99999999;', '&#99999999;'],
  ])('decodes %j', (input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });

  it('keeps CDATA raw, skips comments and instructions, tolerates stray and unclosed tags', () => {
    const root = parseXml(
      '<?xml version="1.0"?><!-- c --><a x="1" y=\'2\' z=bare><b>t&amp;<![CDATA[<raw>&amp;]]></b></stray><c/><d>unclosed</a>',
    );
    const a = child(root, 'a')!;
    expect(a.attrs).toEqual({ x: '1', y: '2', z: 'bare' });
    expect(child(a, 'b')?.text).toBe('t&<raw>&amp;');
    expect(a.children.map((c) => c.name)).toEqual(['b', 'c', 'd']);
    expect(child(a, 'd')?.text).toBe('unclosed');
    expect(child(root, 'missing')).toBeUndefined();
  });
});
