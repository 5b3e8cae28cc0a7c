/**
 * The WEB `/next` answers of a video's comment section → the port's comment pages.
 *
 * - The video's `next` holds the section's first continuation in the `itemSectionRenderer` whose
 *   `sectionIdentifier` is `comment-item-section` (the `comments-section` target first); a
 *   `messageRenderer` there instead ("Comments are turned off") means comments are off.
 * - A comments page (`next` with that continuation) lists `commentThreadRenderer`s (top level) or
 *   bare `commentViewModel`s (a reply page) in `onResponseReceivedEndpoints`, then a
 *   `continuationItemRenderer` for the next page. The first page's `commentsHeaderRenderer` carries
 *   the sort menu: its first item is "Top", its second "Newest" (titles are localised).
 * - A view model only holds keys: the text, author, counts and publish time live in
 *   `frameworkUpdates.entityBatchUpdate.mutations[].payload.commentEntityPayload` (by
 *   `commentKey`), the heart in `engagementToolbarStateEntityPayload` (by `toolbarStateKey`).
 * @module
 */
import type { Comment, CommentPage, CommentSort } from '../../ports/upstream.ts';
import { arr, at, findAll, findFirst, type Json, type JsonObject, obj, ParseError, str } from './json.ts';
import { parseLikeText } from './parse-next.ts';

/** What the video's `next` says about its comment section. */
export type CommentSection =
  | { kind: 'open'; token: string }
  | { kind: 'disabled'; message?: string }
  | { kind: 'absent' };

/** The continuation token of a continuation item (a trigger or a "Show more replies" button). */
function tokenOf(item: Json): string | undefined {
  return (
    str(at(item, 'continuationEndpoint', 'continuationCommand', 'token')) ??
    str(at(item, 'button', 'buttonRenderer', 'command', 'continuationCommand', 'token'))
  );
}

/** The comment section of a video's WEB `next` answer. */
export function parseCommentSection(next: Json): CommentSection {
  const sections = findAll(next, 'itemSectionRenderer').filter(
    (s) => s.sectionIdentifier === 'comment-item-section',
  );
  sections.sort(
    (a, b) => Number(b.targetId === 'comments-section') - Number(a.targetId === 'comments-section'),
  );
  for (const section of sections) {
    const token = tokenOf(findFirst(section, 'continuationItemRenderer'));
    if (token) return { kind: 'open', token };
  }
  const message = findFirst(sections, 'messageRenderer');
  if (sections.length > 0 || message) {
    const text = str(at(message, 'text', 'runs', 0, 'text')) ?? str(at(message, 'text', 'simpleText'));
    return text ? { kind: 'disabled', message: text } : { kind: 'disabled' };
  }
  return { kind: 'absent' };
}

/** The continuation tokens of the sort menu in a first comments page's header. */
export function commentSortTokens(page: Json): Partial<Record<CommentSort, string>> {
  const items = arr(at(findFirst(page, 'sortFilterSubMenuRenderer'), 'subMenuItems'));
  const out: Partial<Record<CommentSort, string>> = {};
  const top = str(at(items[0], 'serviceEndpoint', 'continuationCommand', 'token'));
  const newest = str(at(items[1], 'serviceEndpoint', 'continuationCommand', 'token'));
  if (top) out.top = top;
  if (newest) out.newest = newest;
  return out;
}

/** Entity payloads by key, from `frameworkUpdates.entityBatchUpdate.mutations`. */
function entities(page: Json): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const m of arr(at(page, 'frameworkUpdates', 'entityBatchUpdate', 'mutations'))) {
    const key = str(at(m, 'entityKey'));
    const payload = obj(at(m, 'payload'));
    if (key && payload) out.set(key, payload);
  }
  return out;
}

/** A count as YouTube shows it ("1.2K", "19.924", " "), with its accessibility label as a fallback. */
function count(shown: string | undefined, label: string | undefined): number {
  for (const t of [label, shown]) {
    const parsed = t === undefined ? undefined : parseLikeText(t);
    if (parsed) return parsed.count;
  }
  return 0;
}

/** A trailing parenthesised mark on the publish time: "(edited)", "(bearbeitet)", … */
const EDITED = /\s*\([^()]*\)\s*$/;

/** One comment from its view model, its entity and its toolbar state. */
function commentOf(view: JsonObject, store: Map<string, JsonObject>, thread?: JsonObject): Comment {
  const key = str(view.commentKey);
  const entity = obj(store.get(key ?? '')?.commentEntityPayload);
  if (!entity) throw new ParseError('commentEntityPayload', 'a comment view model without its entity');
  const props = obj(entity.properties);
  const author = obj(entity.author);
  const toolbar = obj(entity.toolbar);
  const commentId = str(view.commentId) ?? str(props?.commentId);
  if (!commentId) throw new ParseError('commentEntityPayload.properties.commentId');
  const stateKey = str(view.toolbarStateKey) ?? str(props?.toolbarStateKey) ?? '';
  const state = obj(store.get(stateKey)?.engagementToolbarStateEntityPayload);
  const published = str(props?.publishedTime) ?? '';
  const likesShown = (str(toolbar?.likeCountNotliked) ?? '').trim();
  const out: Comment = {
    commentId,
    text: (str(at(props, 'content', 'content')) ?? '').replace(/\r\n?/g, '\n'),
    author: str(author?.displayName) ?? '',
    isVerified: author?.isVerified === true,
    isCreator: author?.isCreator === true,
    likeCount: count(likesShown, str(toolbar?.likeCountA11y)),
    likeCountText: likesShown,
    replyCount: count(str(toolbar?.replyCount), str(toolbar?.replyCountA11y)),
    publishedText: published.replace(EDITED, ''),
    isPinned: typeof view.pinnedText === 'string' && view.pinnedText !== '',
    isHearted: state?.heartState === 'TOOLBAR_HEART_STATE_HEARTED',
    isEdited: EDITED.test(published),
  };
  const channelId = str(author?.channelId);
  if (channelId) out.authorChannelId = channelId;
  const avatar = str(author?.avatarThumbnailUrl);
  if (avatar) out.authorThumbnail = avatar;
  const replies = at(thread, 'replies', 'commentRepliesRenderer', 'contents');
  const repliesToken = arr(replies)
    .map((item) => tokenOf(at(item, 'continuationItemRenderer')))
    .find((t) => t !== undefined);
  if (repliesToken) out.repliesContinuation = repliesToken;
  const dot = commentId.indexOf('.');
  if (dot > 0) out.parentId = commentId.slice(0, dot);
  return out;
}

/**
 * A page of comments (or of one comment's replies) from a `next` continuation answer. Throws
 * {@link ParseError} when the answer holds no continuation items at all.
 */
export function parseCommentPage(page: Json, videoId: string): CommentPage {
  const actions = arr(at(page, 'onResponseReceivedEndpoints'));
  const lists = actions
    .map(
      (a) =>
        at(a, 'reloadContinuationItemsCommand', 'continuationItems') ??
        at(a, 'appendContinuationItemsAction', 'continuationItems'),
    )
    .filter(Array.isArray);
  if (lists.length === 0) throw new ParseError('onResponseReceivedEndpoints[].continuationItems');
  const store = entities(page);
  const comments: Comment[] = [];
  let continuation: string | undefined;
  for (const item of lists.flat()) {
    const thread = obj(at(item, 'commentThreadRenderer'));
    const view = obj(
      at(thread ?? item, 'commentViewModel', 'commentViewModel') ?? at(item, 'commentViewModel'),
    );
    if (view) comments.push(commentOf(view, store, thread));
    const next = tokenOf(at(item, 'continuationItemRenderer'));
    if (next) continuation = next;
  }
  return continuation ? { videoId, comments, continuation } : { videoId, comments };
}
