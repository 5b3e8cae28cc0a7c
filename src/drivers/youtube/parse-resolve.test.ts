import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { ParseError } from './json.ts';
import { innertubeError, isNotFoundError, parseResolveUrl } from './parse-resolve.ts';

const endpoint = (inner: object) => ({
  responseContext: { visitorData: 'Cgt4' },
  endpoint: {
    commandMetadata: {
      webCommandMetadata: {
        url: '/youtubei/v1/navigation/resolve_url',
        webPageType: 'WEB_PAGE_TYPE_CHANNEL',
      },
    },
    ...inner,
  },
});
const errorBody = (code: number, status: string) => ({
  error: { code, message: 'Requested entity was not found.', errors: [{ reason: 'notFound' }], status },
});

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    if (e instanceof ParseError) return `ParseError:${e.path}`;
    throw e;
  }
  return 'no error';
}

describe('parseResolveUrl', () => {
  it('returns the browse id of a channel', () => {
    const json = endpoint({
      browseEndpoint: { browseId: 'UCaaaaaaaaaaaaaaaaaaaaaa', params: 'EgC4AQCSAwDyBgQKAjIA' },
    });
    expect(parseResolveUrl(json)).toBe('UCaaaaaaaaaaaaaaaaaaaaaa');
  });

  it.each([
    ['404 NOT_FOUND body', errorBody(404, 'NOT_FOUND'), 'channel_not_found'],
    ['400 INVALID_ARGUMENT body', errorBody(400, 'INVALID_ARGUMENT'), 'channel_not_found'],
    ['a video URL', endpoint({ watchEndpoint: { videoId: 'vid00000001' } }), 'channel_not_found'],
    ['a playlist browse id', endpoint({ browseEndpoint: { browseId: 'VLPLcat' } }), 'channel_not_found'],
    ['an external link', endpoint({ urlEndpoint: { url: 'https://example.com' } }), 'channel_not_found'],
    ['500 body', errorBody(500, 'INTERNAL'), 'ParseError:error'],
    ['no endpoint', { responseContext: {} }, 'ParseError:endpoint'],
    ['not an object', 'oops', 'ParseError:endpoint'],
  ])('%s → %s', (_name, json, expected) => {
    expect(codeOf(() => parseResolveUrl(json))).toBe(expected);
  });
});

describe('innertubeError', () => {
  it('reads the error object and classifies not-found', () => {
    expect(innertubeError(errorBody(404, 'NOT_FOUND'))).toEqual({
      code: 404,
      status: 'NOT_FOUND',
      message: 'Requested entity was not found.',
    });
    expect(innertubeError({ contents: {} })).toBeUndefined();
    expect(isNotFoundError(innertubeError(errorBody(400, 'INVALID_ARGUMENT')))).toBe(true);
    expect(isNotFoundError(innertubeError(errorBody(400, 'FAILED_PRECONDITION')))).toBe(false);
    expect(isNotFoundError(undefined)).toBe(false);
  });
});
