/**
 * MCP vs REST, in process through `app.request`: the same cached transcript as an MCP
 * `tools/call get_transcript` (a 2026-07-28 per-request POST to /mcp, as the v2 client sends it)
 * and as `GET /v1/transcripts?format=text`, requests per second of each measured in the same run
 * with the same concurrency, best of 3 interleaved rounds (goal: MCP ≥ 0.7 × REST). The 2025-11-25 stateless form (what a
 * client sends after `initialize`) is shown beside it. Every path authenticates, counts the call
 * and charges a credit.
 */
import type { Tubescribe } from '../src/app.ts';
import { FakeUpstream, VIDEO } from '../test/fakes/upstream.ts';
import { printTable } from './measure.ts';
import { benchApp } from './setup.ts';

const REQUESTS = 1500;
const ROUNDS = 3;
const IN_FLIGHT = 8;
const GOAL = 0.7;
/** The per-request envelope of the 2026-07-28 protocol, as the v2 client sends it. */
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Requests per second of `send`, `REQUESTS` of them with `IN_FLIGHT` at a time. */
async function rps(send: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 100; i++) await send(); // warm-up
  let left = REQUESTS;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) await send();
    }),
  );
  return REQUESTS / ((performance.now() - began) / 1000);
}

/** An app over the fake upstream with a funded key. */
function setup(): Promise<{ ts: Tubescribe; key: string }> {
  return benchApp({ upstream: new FakeUpstream() });
}

/** Prints the section; false when the goal is missed. */
export async function benchMcp(): Promise<boolean> {
  const { ts, key } = await setup();
  const rest = async () => {
    const res = await ts.app.request(`/v1/transcripts?video_id=${VIDEO}&format=text`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (res.status !== 200) throw new Error(`REST answered ${res.status}`);
    await res.text();
  };
  let id = 0;
  const mcp = (version: '2025-11-25' | '2026-07-28') => async () => {
    const modern = version === '2026-07-28';
    const res = await ts.app.request('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
        ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': 'get_transcript' } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: 'get_transcript', arguments: { video: VIDEO }, ...(modern ? { _meta: META } : {}) },
      }),
    });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('Hello world.') || text.includes('"isError":true')) {
      throw new Error(`MCP answered ${res.status}: ${text.slice(0, 200)}`);
    }
  };
  await rest(); // fills the cache
  // Interleaved rounds, best of each: a busy machine slows every path alike within a round.
  let restRps = 0;
  let modernRps = 0;
  let legacyRps = 0;
  for (let round = 0; round < ROUNDS; round++) {
    restRps = Math.max(restRps, await rps(rest));
    modernRps = Math.max(modernRps, await rps(mcp('2026-07-28')));
    legacyRps = Math.max(legacyRps, await rps(mcp('2025-11-25')));
  }
  const ratio = modernRps / restRps;
  const legacyRatio = legacyRps / restRps;
  await ts.close();

  console.log(`\n## MCP vs REST (cached get_transcript, in process, ${IN_FLIGHT} in flight)`);
  printTable([
    ['path', 'requests/s', 'ratio', 'goal'],
    ['GET /v1/transcripts', restRps.toFixed(0), '1.00', ''],
    [
      'POST /mcp tools/call (2026-07-28)',
      modernRps.toFixed(0),
      ratio.toFixed(2),
      `≥ ${GOAL}: ${ratio >= GOAL ? 'met' : 'MISSED'}`,
    ],
    ['POST /mcp tools/call (2025-11-25, stateless)', legacyRps.toFixed(0), legacyRatio.toFixed(2), '(shown)'],
  ]);
  return ratio >= GOAL;
}
