/**
 * YouTube requests in `GET /metrics`, through the real driver against a fake YouTube on
 * 127.0.0.1: requests by client, endpoint and outcome (a caption URL answering nothing is
 * `empty`), the requests in flight and the player clients' circuit states, read when scraped.
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { ADMIN } from '../helpers/app.ts';
import { type SlowYouTube, startSlowYouTube } from '../helpers/slow-youtube.ts';
import { parseMetrics, sample } from './parse.ts';
import { apiKey, HAS_PROMTOOL, PROMTOOL_TITLE, promtoolCheck, scrape } from './support.ts';

describe('GET /metrics: YouTube requests through the real driver', () => {
  let youtube: SlowYouTube;
  let ts: Tubescribe;
  beforeAll(async () => {
    // VISIONOS's caption URL answers an empty 200 at once: the PO-token gate's answer.
    youtube = await startSlowYouTube(0, { stallCaptions: ['VISIONOS'], stallMs: 0 });
    ts = createTubescribe({
      clock: new ManualClock('2026-03-01T10:00:00.000Z'),
      random: new SeededRandom(11),
      logger: silentLogger,
      adminToken: ADMIN,
      secret: 'test-secret-test-secret-test-secret!',
      youtube: { origin: youtube.origin },
      limits: { reconcileIntervalMs: 0 },
    });
    await ts.start();
  });
  afterAll(async () => {
    await ts.close();
    await youtube.close();
  });

  it('shows an empty caption answer as outcome="empty", and the clients that answered', async () => {
    const key = await apiKey(ts);
    const res = await ts.app.request(`/v1/transcripts?video_id=${VIDEO}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const samples = parseMetrics(await scrape(ts.app));
    const youtubeRequests = (labels: Record<string, string>) =>
      sample(samples, 'tubescribe_youtube_requests_total', labels);
    expect(youtubeRequests({ client: 'VISIONOS', endpoint: 'captions', outcome: 'empty' })).toBe(1);
    expect(youtubeRequests({ client: 'ANDROID', endpoint: 'captions', outcome: 'ok' })).toBe(1);
    expect(youtubeRequests({ client: 'VISIONOS', endpoint: 'visitor_id', outcome: 'ok' })).toBe(1);
    const players = samples.filter(
      (s) =>
        s.name === 'tubescribe_youtube_requests_total' &&
        s.labels.client === 'VISIONOS' &&
        s.labels.outcome === 'ok',
    );
    expect(players.map((s) => s.labels.endpoint).sort()).toEqual(['player', 'visitor_id']);
    expect(sample(samples, 'tubescribe_youtube_requests_in_flight', {})).toBe(0);
    // Every player client's breaker is listed with exactly one current state.
    const states = samples.filter(
      (s) => s.name === 'tubescribe_youtube_client_circuit_state' && s.value === 1,
    );
    expect(states.map((s) => s.labels.client).sort()).toEqual(['ANDROID', 'VISIONOS', 'WEB']);
  });

  it('reads the requests in flight and the circuit states when scraped', async () => {
    const key = await apiKey(ts);
    youtube.delayMs = 300;
    const pending = ts.app.request('/v1/transcripts?video_id=eeeeeeeeeee', {
      headers: { authorization: `Bearer ${key}` },
    });
    for (let i = 0; i < 200 && youtube.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const during = parseMetrics(await scrape(ts.app));
    expect(sample(during, 'tubescribe_youtube_requests_in_flight', {})).toBeGreaterThanOrEqual(1);
    expect((await pending).status).toBe(200);
    youtube.delayMs = 0;
    // A third empty caption answer opens VISIONOS's breaker (three failures in a row by default).
    expect(
      (
        await ts.app.request('/v1/transcripts?video_id=fffffffffff', {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status,
    ).toBe(200);
    const after = parseMetrics(await scrape(ts.app));
    expect(sample(after, 'tubescribe_youtube_requests_in_flight', {})).toBe(0);
    expect(
      sample(after, 'tubescribe_youtube_client_circuit_state', { client: 'VISIONOS', state: 'open' }),
    ).toBe(1);
    expect(
      sample(after, 'tubescribe_youtube_client_circuit_state', { client: 'VISIONOS', state: 'closed' }),
    ).toBe(0);
  });

  it.skipIf(!HAS_PROMTOOL)(PROMTOOL_TITLE, async () => {
    promtoolCheck(await scrape(ts.app));
  });
});
