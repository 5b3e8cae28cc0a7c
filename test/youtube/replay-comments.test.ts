/**
 * Replays the comment recordings of NewPipeExtractor (youtubecommentsextractor/, January and June
 * 2026) through the comments parser and the YouTube driver, field by field. Expected values were
 * read from the recordings themselves. Each case is a WEB `next` for the video (the comment
 * section's token), then `next` with that token (the first "Top" page), and for `replies` a reply
 * page; the driver is replayed over exactly the case's files, so every request it makes must be
 * the recorded one.
 */
import { expect, it } from 'vitest';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import {
  commentSortTokens,
  parseCommentPage,
  parseCommentSection,
} from '../../src/drivers/youtube/parse-comments.ts';
import type { Comment, CommentPage } from '../../src/ports/upstream.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { describeRecordings, loadRecording, recordedJson } from './recordings.ts';
import { allRecordings, ReplayFetch } from './replay-fetch.ts';

const DIR = 'youtubecommentsextractor';

/** The recorded files of a case: the WEB `next` of the video first, then the continuations. */
const CASES: Record<string, { videoId: string; next: string; pages: string[] }> = {
  pinned: { videoId: 'bjFtFMilb34', next: '_2', pages: ['_3'] },
  heartedbycreator: { videoId: 'RwTdoQNVMTY', next: '_2', pages: ['_3'] },
  channelowner: { videoId: 'bem4adjGKjE', next: '_2', pages: ['_3'] },
  creatorreply: { videoId: 'bem4adjGKjE', next: '_2', pages: ['_3'] },
  editedcomment: { videoId: 'VsFjP58j5i8', next: '_1', pages: ['_2'] },
  emptycomment: { videoId: 'VM_6n762j6M', next: '_2', pages: ['_3'] },
  formatting: { videoId: 'zYpyS2HaZHM', next: '_2', pages: ['_3'] },
  likesvotes: { videoId: 'QqsLTNkzvaY', next: '_2', pages: ['_3'] },
  localizedvotecount: { videoId: 'QqsLTNkzvaY', next: '_2', pages: ['_3'] },
  replies: { videoId: 'xaQJbozY_Is', next: '_2', pages: ['_3', '_4'] },
  thomas: { videoId: 'D00Au7k3i6o', next: '_2', pages: ['_3', '_4', '_5'] },
};

const file = (name: string, mock: string) => `${DIR}/${name}/generated_mock${mock}.json`;

/** The parsed first "Top" page of a case. */
function firstPage(name: string): CommentPage {
  const c = CASES[name]!;
  return parseCommentPage(recordedJson(file(name, c.pages[0]!)), c.videoId);
}

/** The comment `id` of a page. */
function byId(page: CommentPage, id: string): Comment {
  const found = page.comments.find((c) => c.commentId === id);
  if (!found) throw new Error(`no comment ${id}`);
  return found;
}

/** The JSON request body of a recording. */
function requestBody(path: string): Record<string, unknown> {
  return JSON.parse(loadRecording(path).request.body ?? '{}') as Record<string, unknown>;
}

/** The YouTube driver over exactly the files of a case. */
function driver(name: string, hl?: string) {
  const c = CASES[name]!;
  const replay = new ReplayFetch([c.next, ...c.pages].map((m) => file(name, m)));
  const upstream = createYouTubeUpstream({
    fetch: replay.fetch,
    retries: 0,
    clock: new ManualClock('2026-01-26T12:00:00Z'),
    random: new SeededRandom(7),
    ...(hl ? { hl } : {}),
  });
  return { upstream, replay };
}

describeRecordings('replay: the comment section of the watch page', () => {
  it.each(Object.entries(CASES))(
    '%s: the section token is the one the first page was asked with',
    (name, c) => {
      const section = parseCommentSection(recordedJson(file(name, c.next)));
      expect(section.kind).toBe('open');
      const sent = String(requestBody(file(name, c.pages[0]!)).continuation);
      expect(section.kind === 'open' && decodeURIComponent(section.token)).toBe(decodeURIComponent(sent));
      expect(requestBody(file(name, c.next)).videoId).toBe(c.videoId);
    },
  );

  it.each(Object.keys(CASES))(
    '%s: the first page has a Top and a Newest token; every comment is whole',
    (name) => {
      const page = recordedJson(file(name, CASES[name]!.pages[0]!));
      const tokens = commentSortTokens(page);
      expect(Object.keys(tokens).sort()).toEqual(['newest', 'top']);
      expect(tokens.top).not.toBe(tokens.newest);
      const parsed = firstPage(name);
      expect(parsed.comments.length).toBeGreaterThan(0);
      for (const c of parsed.comments) {
        expect(c.commentId).toMatch(/^Ug[A-Za-z0-9_-]+$/);
        expect(c.author).toMatch(/^@/);
        expect(c.authorChannelId).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
        expect(c.authorThumbnail).toMatch(/^https:\/\/yt3\.ggpht\.com\//);
        expect(c.publishedText).not.toBe('');
        expect(c.publishedText).not.toMatch(/\(/);
        expect(Number.isInteger(c.likeCount) && c.likeCount >= 0).toBe(true);
        expect(c.parentId).toBeUndefined();
        expect(c.repliesContinuation !== undefined).toBe(c.replyCount > 0);
      }
    },
  );
});

describeRecordings('replay: comment pages, case by case', () => {
  it('pinned (bjFtFMilb34): the pinned creator comment, emoji and line breaks kept, links as text', () => {
    const page = firstPage('pinned');
    expect(page.comments).toHaveLength(20);
    expect(page.continuation).toMatch(/^Eg0SC2JqRnRGTWlsYjM0/);
    expect(page.comments[0]).toEqual({
      commentId: 'Ugyh_hTLZVme65Jqc954AaABAg',
      text:
        "Pour retrouver toutes nos vidéos d'explication sur le Covid-19, c'est par ici 👉\n" +
        'https://www.youtube.com/playlist?list=PLFuK0VAIne9J9IgbRJAciLFZ264m4j46g\n' +
        'Et pour ne pas rater nos prochaines vidéos 🔔 👉 \n' +
        'https://www.youtube.com/user/LeMonde?sub_confirmation=1',
      author: '@lemondefr',
      authorChannelId: 'UCYpRDnhk5H8h16jpS84uqsA',
      authorThumbnail:
        'https://yt3.ggpht.com/ytc/AIdro_m_z27vtP0odK2Y5z7t_2P1AsICnAPgezngWJaPKb7vREI=s88-c-k-c0x00ffffff-no-rj',
      isVerified: true,
      isCreator: true,
      likeCount: 67,
      likeCountText: '67',
      replyCount: 76,
      publishedText: '5 years ago',
      isPinned: true,
      isHearted: false,
      isEdited: false,
      repliesContinuation: expect.stringMatching(/^Eg0SC2JqRnRGTWlsYjM0/),
    });
    expect(page.comments.filter((c) => c.isPinned)).toHaveLength(1);
  });

  it('heartedbycreator (RwTdoQNVMTY): the heart comes from the toolbar state', () => {
    const page = firstPage('heartedbycreator');
    expect(byId(page, 'UgwVQuzyc79rasw-_P94AaABAg')).toMatchObject({
      text: 'W refresh pull',
      author: '@xoxo_atlas',
      likeCount: 25,
      publishedText: '17 hours ago',
      isHearted: true,
      isCreator: false,
    });
    expect(byId(page, 'Ugz1Zrohy_1rB1ecwJF4AaABAg')).toMatchObject({
      isHearted: false,
      isEdited: true,
      publishedText: '14 hours ago',
    });
    expect(page.comments.some((c) => !c.isHearted)).toBe(true);
  });

  it('channelowner (bem4adjGKjE): the channel owner’s pinned comment is the creator’s', () => {
    const page = firstPage('channelowner');
    expect(page.comments[0]).toMatchObject({
      commentId: 'UgwWU4k2v4K0RhIDGuV4AaABAg',
      author: '@UndineAlmani',
      authorChannelId: 'UCGc7D1dcbCWHzh3SfDhSFhw',
      isCreator: true,
      isPinned: true,
      isVerified: false,
      likeCount: 56,
      replyCount: 0,
      publishedText: '2 years ago',
    });
    expect(page.comments[0]?.text).toMatch(/^I hate ads, but I'd watch them in support of creators\./);
    expect(page.comments[0]?.text).toContain('\n\n(a) allow people to skip ads immediately\n');
    expect(page.comments.filter((c) => c.isCreator).map((c) => c.commentId)).toEqual([
      'UgwWU4k2v4K0RhIDGuV4AaABAg',
    ]);
  });

  it('creatorreply (bem4adjGKjE): threads the creator answered carry their replies continuation', () => {
    const page = firstPage('creatorreply');
    for (const id of [
      'UgyvwwIVFcQdcOjxAmV4AaABAg',
      'UgydddbAMifOi1aBN9N4AaABAg',
      'Ugwa1FdqveE0qKlB-H54AaABAg',
      'Ugwn8tdo_EH4aJR39RV4AaABAg',
      'Ugw4LYkGGLnMEWUrBjZ4AaABAg',
    ]) {
      expect(byId(page, id)).toMatchObject({ replyCount: 1, repliesContinuation: expect.any(String) });
    }
    expect(byId(page, 'Ugy-yKb5bh8Fu1nSaRZ4AaABAg').replyCount).toBe(2);
    expect(byId(page, 'UgyvwwIVFcQdcOjxAmV4AaABAg')).toMatchObject({
      author: '@jacksonmacd',
      likeCount: 11,
      publishedText: '11 months ago',
    });
  });

  it('editedcomment (VsFjP58j5i8, June 2026): "(edited)" becomes isEdited and leaves the date', () => {
    const page = firstPage('editedcomment');
    const edited = page.comments.filter((c) => c.isEdited).map((c) => [c.commentId, c.publishedText]);
    expect(edited).toEqual([
      ['Ugyt-HhO6oJvfDyDBCx4AaABAg', '9 months ago'],
      ['Ugy4dAaE6nCtS-TJQOZ4AaABAg', '3 weeks ago'],
      ['Ugync2o-Zbgoua6ru1l4AaABAg', '2 years ago'],
      ['Ugw90B6sFAARj13CL2Z4AaABAg', '5 months ago'],
      ['UgzooBdRpj6XlhQC7Th4AaABAg', '4 months ago'],
    ]);
    expect(page.comments).toHaveLength(20);
  });

  it('emptycomment (VM_6n762j6M): blank like counts are 0, CRLF becomes LF, emoji-only text kept', () => {
    const page = firstPage('emptycomment');
    expect(byId(page, 'UgyJUcd5SsX2kVwuXq54AaABAg')).toMatchObject({
      text: 'te jam kthyer unè dikur\npo me nuk do kthehem kurŕ"😢😢',
      likeCount: 0,
      likeCountText: '',
      replyCount: 0,
      publishedText: '7 days ago',
    });
    const pinned = byId(page, 'Ugw9Pojwea8pIswcP214AaABAg');
    expect(pinned).toMatchObject({
      isPinned: true,
      isCreator: true,
      isEdited: true,
      likeCount: 29,
      replyCount: 2,
    });
    expect(pinned.text).not.toContain('\r');
    expect(pinned.text.startsWith("✔ Did you subscribe to 𝗔𝗥𝗧𝗔's Official channel? 👇🏼\n►  https://")).toBe(
      true,
    );
    expect(byId(page, 'UgxzWOxLDkwHix0v57J4AaABAg').text).toBe('10 Janar  2026❤');
  });

  it('formatting (zYpyS2HaZHM): bold, strikethrough and timestamp links become plain text', () => {
    const page = firstPage('formatting');
    const c = page.comments[0]!;
    expect(c).toMatchObject({
      commentId: 'UgwEjpE2INqOBopnRNR4AaABAg',
      author: '@NoKi1119',
      likeCount: 2000,
      likeCountText: '2k',
      replyCount: 46,
      isEdited: true,
      publishedText: '3 years ago',
    });
    expect(
      c.text.startsWith(
        'Woke up from a nightmare about a world without subscriptions, so glad companies help alleviate this!\nTimestamps\n[0:00] Chapters.\n[1:13] Intro - Dark Mode.\n',
      ),
    ).toBe(true);
    expect(c.text).not.toMatch(/<[a-z]|\*\*|<\/?b>/);
    expect(byId(page, 'Ugw4j2Q8oNIgDRfpp3N4AaABAg')).toMatchObject({
      text: 'The Luke stand in this week is so lifelike :)',
      likeCount: 211,
      replyCount: 1,
    });
  });

  it('likesvotes (QqsLTNkzvaY, en-GB): rounded like counts', () => {
    const page = firstPage('likesvotes');
    const likes = page.comments
      .slice(0, 4)
      .map((c) => [c.author, c.likeCount, c.likeCountText, c.replyCount]);
    expect(likes).toEqual([
      ['@kurzgesagt', 19_000, '19k', 436],
      ['@couldbericher', 2_900, '2.9k', 17],
      ['@mkbhd', 42_000, '42k', 463],
      ['@capp00', 4_900, '4.9k', 12],
    ]);
    expect(page.comments[0]).toMatchObject({ isPinned: true, isVerified: true, isEdited: true });
  });

  it('localizedvotecount (QqsLTNkzvaY, de-DE): German thousands separators, "(bearbeitet)"', () => {
    const page = firstPage('localizedvotecount');
    const likes = page.comments.slice(0, 4).map((c) => [c.likeCount, c.likeCountText, c.publishedText]);
    expect(likes).toEqual([
      [19_924, '19.924', 'vor 4 Jahren'],
      [2_908, '2908', 'vor 4 Jahren'],
      [42_218, '42.218', 'vor 4 Jahren'],
      [4_925, '4925', 'vor 4 Jahren'],
    ]);
    expect(page.comments[0]?.isEdited).toBe(true);
    expect(page.comments[1]?.isEdited).toBe(false);
  });

  it('replies (xaQJbozY_Is): the pinned comment’s token opens its reply page; replies have parentId', () => {
    const page = firstPage('replies');
    const pinned = page.comments[0]!;
    expect(pinned).toMatchObject({
      commentId: 'UgwSOM0QHBLysE3vZE54AaABAg',
      author: '@kurzgesagt',
      likeCount: 9_800,
      replyCount: 327,
      isPinned: true,
    });
    const sent = String(requestBody(file('replies', '_4')).continuation);
    expect(decodeURIComponent(pinned.repliesContinuation ?? '')).toBe(decodeURIComponent(sent));
    const replies = parseCommentPage(recordedJson(file('replies', '_4')), 'xaQJbozY_Is');
    expect(replies.comments).toHaveLength(10);
    expect(replies.comments.every((r) => r.parentId === pinned.commentId)).toBe(true);
    expect(replies.comments.every((r) => r.repliesContinuation === undefined)).toBe(true);
    expect(replies.comments.slice(0, 3).map((r) => [r.commentId, r.text, r.likeCount, r.isEdited])).toEqual([
      ['UgwSOM0QHBLysE3vZE54AaABAg.9TOrAAD78Z59TP5tOBhBXP', 'First', 52, false],
      ['UgwSOM0QHBLysE3vZE54AaABAg.9TOrAAD78Z59TP5tTqLxXV', 'Furry dinosaur', 75, true],
      ['UgwSOM0QHBLysE3vZE54AaABAg.9TOrAAD78Z59TP5tibZ6U3', 'Hi', 18, false],
    ]);
    // "Show more replies": the next reply page's token.
    expect(replies.continuation).toMatch(/^Eg0SC3hhUUpib3pZX0lz/);
  });

  it('thomas (D00Au7k3i6o): a short thread fetched twice, same three comments, no next page', () => {
    const a = firstPage('thomas');
    const b = parseCommentPage(recordedJson(file('thomas', '_5')), 'D00Au7k3i6o');
    expect(b).toEqual(a);
    expect(a.continuation).toBeUndefined();
    expect(a.comments.map((c) => [c.author, c.text, c.likeCount, c.publishedText, c.isHearted])).toEqual([
      ['@Nicky-mg4up', 'Category: Education (now in 1080p)', 1, '9 years ago', true],
      ['@LicensedTaddus', '10/10', 0, '6 years ago', false],
      [
        '@Triggerhappyfan-cx7iy',
        `What are you doing with your life${'\n'.repeat(14)}also stop deleting all of your videos`,
        0,
        '9 years ago',
        false,
      ],
    ]);
  });
});

describeRecordings('replay: the YouTube driver over each case', () => {
  it.each(Object.keys(CASES))('%s: comments(top) asks exactly the recorded requests', async (name) => {
    const { upstream, replay } = driver(name, name === 'localizedvotecount' ? 'de-DE' : undefined);
    const page = await upstream.comments(CASES[name]!.videoId, { sort: 'top' });
    expect(replay.misses).toEqual([]);
    expect(replay.log.map((r) => r.url)).toEqual([
      expect.stringMatching(/\/youtubei\/v1\/next/),
      expect.stringMatching(/\/youtubei\/v1\/next/),
    ]);
    expect(page).toEqual(firstPage(name));
  });

  it('replies: a comment’s repliesContinuation through the driver gives the reply page', async () => {
    const { upstream, replay } = driver('replies');
    const first = await upstream.comments('xaQJbozY_Is', { sort: 'top' });
    const continuation = first.comments[0]?.repliesContinuation ?? '';
    const replies = await upstream.comments('xaQJbozY_Is', { sort: 'top', continuation });
    expect(replay.misses).toEqual([]);
    expect(replies.comments).toHaveLength(10);
    expect(replies.comments[0]?.parentId).toBe('UgwSOM0QHBLysE3vZE54AaABAg');
  });

  it('newest: the sort menu’s token is asked for (not recorded: the replay answers 404 → invalid_cursor)', async () => {
    const { upstream, replay } = driver('pinned');
    const error = await upstream.comments('bjFtFMilb34', { sort: 'newest' }).catch((e: unknown) => e);
    expect(replay.log).toHaveLength(3);
    const newest = commentSortTokens(recordedJson(file('pinned', '_3'))).newest ?? '';
    expect(replay.misses).toEqual([`POST /youtubei/v1/next continuation=${decodeURIComponent(newest)}`]);
    expect(error).toMatchObject({ code: 'invalid_cursor' });
  });

  it('a watch page whose comment section is a message, of a playable video → comments_disabled', async () => {
    const dir = 'stream/youtubestreamextractordefault/licenseddoctor/';
    const replay = new ReplayFetch(allRecordings().filter((f) => f.startsWith(dir)));
    const asked: string[] = [];
    replay.handlers.push((url, init) => {
      if (!url.pathname.endsWith('/next')) return undefined;
      asked.push(String(init.body));
      const message = { messageRenderer: { text: { runs: [{ text: 'Comments are turned off.' }] } } };
      const section = {
        sectionIdentifier: 'comment-item-section',
        targetId: 'comments-section',
        contents: [message],
      };
      return Response.json({
        currentVideoEndpoint: { watchEndpoint: { videoId: 'rCAS2eD-mcw' } },
        contents: {
          twoColumnWatchNextResults: {
            results: { results: { contents: [{ itemSectionRenderer: section }] } },
          },
        },
      });
    });
    const upstream = createYouTubeUpstream({
      fetch: replay.fetch,
      retries: 0,
      clock: new ManualClock('2026-06-07T21:18:00Z'),
      random: new SeededRandom(3),
    });
    const error = await upstream.comments('rCAS2eD-mcw', { sort: 'top' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'comments_disabled', status: 404 });
    expect(String((error as Error).message)).toContain('Comments are turned off.');
    expect(asked).toHaveLength(1);
    expect(replay.misses).toEqual([]);
  });
});
