/**
 * The comments side of the YouTube driver, over the WEB client's `next` endpoint:
 * the video's `next` (the comment section's first token, "Top" order) → the first comments page
 * (with the sort menu; "Newest" takes one more request with the menu's token) → later pages and
 * reply pages with the continuation each page hands out. A video without a comment section whose
 * player answers is `comments_disabled`; one the player refuses gets the player's truthful error.
 * @module
 */
import { ApiError } from '../../errors.ts';
import type { CommentPage, CommentSort, PlayerData, UpstreamOptions } from '../../ports/upstream.ts';
import type { CallOptions } from './innertube.ts';
import { at, type Json, ParseError, str } from './json.ts';
import { commentSortTokens, parseCommentPage, parseCommentSection } from './parse-comments.ts';
import { innertubeError, isNotFoundError } from './parse-resolve.ts';
import type { ClientProfile } from './profiles.ts';
import type { SourceDeps } from './source-deps.ts';

/** `context.client` fields NewPipe's WEB `next` requests carry beyond the profile's. */
const WEB_CLIENT: Readonly<Record<string, string>> = { originalUrl: 'https://www.youtube.com' };

/** Reads a video's comments; `player` names the truthful error of a video that has no comment section. */
export class CommentSource {
  private readonly web: ClientProfile;

  constructor(
    private readonly deps: SourceDeps,
    private readonly player: (videoId: string, o: UpstreamOptions) => Promise<PlayerData>,
  ) {
    const web = deps.profiles.WEB;
    if (!web) throw new Error('The YouTube driver needs the WEB client profile.');
    this.web = web;
  }

  /** A page of comments or replies (see the port); 2 requests for a "Top" first page, 3 for "Newest". */
  async comments(
    videoId: string,
    page: { sort: CommentSort; continuation?: string },
    o: UpstreamOptions = {},
  ): Promise<CommentPage> {
    if (page.continuation !== undefined) {
      if (page.continuation === '') throw new ApiError('invalid_cursor', 'The continuation is empty.');
      return parseCommentPage(await this.continue(page.continuation, o), videoId);
    }
    const next = await this.call({ videoId, contentCheckOk: true, racyCheckOk: true }, o);
    const shown = str(at(next, 'currentVideoEndpoint', 'watchEndpoint', 'videoId'));
    const section = parseCommentSection(next);
    if (shown !== undefined && shown !== videoId)
      throw new ParseError('currentVideoEndpoint', `next answered for ${shown}, not ${videoId}`);
    if (section.kind !== 'open') {
      await this.player(videoId, o); // throws the truthful error when the video cannot be watched
      const why = section.kind === 'disabled' && section.message ? ` (YouTube: "${section.message}")` : '';
      throw new ApiError('comments_disabled', `Comments are turned off for this video${why}.`);
    }
    const first = await this.continue(section.token, o);
    if (page.sort === 'top') return parseCommentPage(first, videoId);
    const token = commentSortTokens(first).newest;
    if (!token) throw new ParseError('sortFilterSubMenuRenderer.subMenuItems[1]', 'no "Newest" sort');
    return parseCommentPage(await this.continue(token, o), videoId);
  }

  /** A `next` call with the WEB client; a 4xx/5xx without InnerTube's error object is unparseable. */
  private async call(body: Record<string, unknown>, o: UpstreamOptions): Promise<Json> {
    const t = this.deps.tube.transport;
    const options: CallOptions = {
      hl: o.hl ?? t.hl,
      gl: o.gl ?? t.gl,
      client: WEB_CLIENT,
      visitor: false,
      ...(o.signal ? { signal: o.signal } : {}),
    };
    const answer = await this.deps.tube.call(this.web, 'next', body, options);
    if (answer.status >= 400 && !innertubeError(answer.json))
      throw new ParseError(`next: HTTP ${answer.status}`);
    return answer.json;
  }

  /** A continuation: YouTube rejecting it (400/404) is `invalid_cursor`. */
  private async continue(token: string, o: UpstreamOptions): Promise<Json> {
    const json = await this.call({ continuation: token }, o);
    const error = innertubeError(json);
    if (error && isNotFoundError(error))
      throw new ApiError(
        'invalid_cursor',
        'YouTube no longer accepts this continuation; start from the first page.',
      );
    if (error) throw new ParseError('next', 'next answered an error');
    return json;
  }
}
