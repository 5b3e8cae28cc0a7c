/** Unit tests of the comments parser over small hand-written answers (the recordings: test/youtube/replay-comments.test.ts). */
import { describe, expect, it } from 'vitest';
import { ParseError } from './json.ts';
import { commentSortTokens, parseCommentPage, parseCommentSection } from './parse-comments.ts';

const trigger = (token: string) => ({
  continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token } } },
});

/** A video's `next` with the given comment sections. */
const watch = (...sections: unknown[]) => ({
  contents: {
    twoColumnWatchNextResults: {
      results: { results: { contents: sections.map((s) => ({ itemSectionRenderer: s })) } },
    },
  },
});

/** A thread view model and its entities. */
function thread(id: string, o: { pinned?: boolean; hearted?: boolean; replies?: string } = {}) {
  const view = {
    commentViewModel: {
      commentViewModel: {
        commentKey: `k-${id}`,
        toolbarStateKey: `t-${id}`,
        commentId: id,
        ...(o.pinned ? { pinnedText: 'Pinned by @creator' } : {}),
      },
    },
    ...(o.replies ? { replies: { commentRepliesRenderer: { contents: [trigger(o.replies)] } } } : {}),
  };
  return { commentThreadRenderer: view };
}

function entity(
  id: string,
  fields: { text?: string; time?: string; likes?: string; a11y?: string; replies?: string },
) {
  return {
    entityKey: `k-${id}`,
    payload: {
      commentEntityPayload: {
        properties: {
          commentId: id,
          content: {
            content: fields.text ?? 'hi',
            styleRuns: [{ startIndex: 0, length: 2, weightLabel: 'FONT_WEIGHT_MEDIUM' }],
          },
          publishedTime: fields.time ?? '1 day ago',
        },
        author: {
          channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
          displayName: '@someone',
          avatarThumbnailUrl: 'https://yt3.ggpht.com/a=s88',
          isVerified: false,
          isCreator: false,
        },
        toolbar: {
          likeCountNotliked: fields.likes ?? ' ',
          likeCountA11y: fields.a11y ?? '0 likes',
          replyCount: fields.replies ?? '',
        },
      },
    },
  };
}

const heart = (id: string, hearted: boolean) => ({
  entityKey: `t-${id}`,
  payload: {
    engagementToolbarStateEntityPayload: {
      heartState: hearted ? 'TOOLBAR_HEART_STATE_HEARTED' : 'TOOLBAR_HEART_STATE_UNHEARTED',
    },
  },
});

const page = (items: unknown[], mutations: unknown[], action = 'reloadContinuationItemsCommand') => ({
  onResponseReceivedEndpoints: [{ [action]: { continuationItems: items } }],
  frameworkUpdates: { entityBatchUpdate: { mutations } },
});

describe('parseCommentSection', () => {
  it('the comments-section token wins over the engagement panel’s', () => {
    const next = watch(
      {
        sectionIdentifier: 'comment-item-section',
        targetId: 'engagement-panel-comments-section',
        contents: [trigger('panel')],
      },
      {
        sectionIdentifier: 'comment-item-section',
        targetId: 'comments-section',
        contents: [trigger('main')],
      },
    );
    expect(parseCommentSection(next)).toEqual({ kind: 'open', token: 'main' });
  });

  it('a message instead of a continuation: comments are turned off', () => {
    const message = {
      messageRenderer: { text: { runs: [{ text: 'Comments are turned off. ' }, { text: 'Learn more' }] } },
    };
    const next = watch({ sectionIdentifier: 'comment-item-section', contents: [message] });
    expect(parseCommentSection(next)).toEqual({ kind: 'disabled', message: 'Comments are turned off. ' });
  });

  it('no comment section at all: absent', () => {
    expect(parseCommentSection(watch({ sectionIdentifier: 'other', contents: [] }))).toEqual({
      kind: 'absent',
    });
    expect(parseCommentSection({})).toEqual({ kind: 'absent' });
  });
});

describe('commentSortTokens', () => {
  it('Top first, Newest second, whatever the titles say', () => {
    const item = (token: string) => ({ title: '…', serviceEndpoint: { continuationCommand: { token } } });
    const header = {
      commentsHeaderRenderer: {
        sortMenu: { sortFilterSubMenuRenderer: { subMenuItems: [item('a'), item('b')] } },
      },
    };
    expect(commentSortTokens(page([header], []))).toEqual({ top: 'a', newest: 'b' });
    expect(commentSortTokens(page([], []))).toEqual({});
  });
});

describe('parseCommentPage', () => {
  it('threads joined with their entities and toolbar states; the last trigger continues', () => {
    const json = page(
      [thread('Ug1', { pinned: true, replies: 'r1' }), thread('Ug2', { hearted: true }), trigger('next')],
      [
        entity('Ug1', {
          text: 'a\r\nb 🎉',
          time: '2 years ago (edited)',
          likes: '1.2K',
          a11y: '1.2K likes',
          replies: '3',
        }),
        heart('Ug1', false),
        entity('Ug2', {}),
        heart('Ug2', true),
      ],
    );
    expect(parseCommentPage(json, 'vvvvvvvvvvv')).toEqual({
      videoId: 'vvvvvvvvvvv',
      comments: [
        {
          commentId: 'Ug1',
          text: 'a\nb 🎉',
          author: '@someone',
          authorChannelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
          authorThumbnail: 'https://yt3.ggpht.com/a=s88',
          isVerified: false,
          isCreator: false,
          likeCount: 1200,
          likeCountText: '1.2K',
          replyCount: 3,
          publishedText: '2 years ago',
          isPinned: true,
          isHearted: false,
          isEdited: true,
          repliesContinuation: 'r1',
        },
        {
          commentId: 'Ug2',
          text: 'hi',
          author: '@someone',
          authorChannelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
          authorThumbnail: 'https://yt3.ggpht.com/a=s88',
          isVerified: false,
          isCreator: false,
          likeCount: 0,
          likeCountText: '',
          replyCount: 0,
          publishedText: '1 day ago',
          isPinned: false,
          isHearted: true,
          isEdited: false,
        },
      ],
      continuation: 'next',
    });
  });

  it('a reply page: bare view models, parentId from the dotted id, "Show more replies" continues', () => {
    const more = {
      continuationItemRenderer: {
        button: { buttonRenderer: { command: { continuationCommand: { token: 'more' } } } },
      },
    };
    const reply = {
      commentViewModel: { commentKey: 'k-Ug1.r1', toolbarStateKey: 't-Ug1.r1', commentId: 'Ug1.r1' },
    };
    const json = page([reply, more], [entity('Ug1.r1', { text: 'yes' })], 'appendContinuationItemsAction');
    const result = parseCommentPage(json, 'vvvvvvvvvvv');
    expect(result.comments.map((c) => [c.commentId, c.parentId, c.text, c.isHearted])).toEqual([
      ['Ug1.r1', 'Ug1', 'yes', false],
    ]);
    expect(result.continuation).toBe('more');
  });

  it('an empty section is an empty page without continuation', () => {
    expect(parseCommentPage(page([], []), 'vvvvvvvvvvv')).toEqual({ videoId: 'vvvvvvvvvvv', comments: [] });
  });

  it('no continuation items, or a view model without its entity: ParseError', () => {
    expect(() => parseCommentPage({}, 'v')).toThrow(ParseError);
    expect(() => parseCommentPage(page([thread('Ug9')], []), 'v')).toThrow(ParseError);
  });
});
