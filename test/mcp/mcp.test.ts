/**
 * `/mcp` over a real loopback socket, driven by the official clients: the v1 SDK
 * (`@modelcontextprotocol/sdk`) and the v2 client (`@modelcontextprotocol/client`), negotiating
 * 2025-06-18, 2025-11-25 and 2026-07-28. Every tool is listed and called; costs are read back from
 * GET /v1/account; failures are free `isError` results; keys, scopes and origins are enforced.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRunningServer, serve } from '../../adapters/node/index.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { silentLogger, systemClock } from '../../src/drivers/system.ts';
import { ApiError } from '../../src/errors.ts';
import { CHANNEL, FakeUpstream, json3, PLAYLIST, VIDEO } from '../fakes/upstream.ts';

const ADMIN = 'mcp-admin-token-0123456789abcdefgh';
const LONG = 'L0ngVide0aa';
const TOOLS = [
  'get_channel',
  'get_comments',
  'get_playlist',
  'get_transcript',
  'get_video_info',
  'get_video_metadata',
  'list_latest_videos',
  'list_transcript_languages',
  'search_youtube',
];

let running: NodeRunningServer;
let base: string;
const upstream = new FakeUpstream();
const accounts = new Map<string, string>();

async function createKey(credits: number, scopes?: string[], plan = 'bulk'): Promise<string> {
  const res = await fetch(`${base}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits, plan, ...(scopes ? { scopes } : {}) }),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { api_key: string; account_id: string };
  accounts.set(created.api_key, created.account_id);
  return created.api_key;
}

/** The balance of a key, from GET /v1/account. */
async function balance(key: string): Promise<number> {
  const res = await fetch(`${base}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { credits: number }).credits;
}

/** The balance of a key's account through the admin API (counts toward no limit of the key). */
async function adminBalance(key: string): Promise<number> {
  const res = await fetch(`${base}/admin/accounts/${accounts.get(key)}`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  return ((await res.json()) as { credits: number }).credits;
}

type Version = '2025-06-18' | '2025-11-25' | '2026-07-28';

interface AnyClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function connect(kind: 'v1' | 'v2', key: string, version: Version): Promise<AnyClient> {
  const url = new URL(`${base}/mcp`);
  const requestInit = { headers: { authorization: `Bearer ${key}` } };
  if (kind === 'v1') {
    const client = new ClientV1({ name: 'test-v1', version: '1.0.0' });
    await client.connect(new TransportV1(url, { requestInit }));
    expect(version).toBe('2025-11-25');
    return client as unknown as AnyClient;
  }
  const client =
    version === '2026-07-28'
      ? new ClientV2(
          { name: 'test-v2', version: '1.0.0' },
          { versionNegotiation: { mode: { pin: version } } },
        )
      : new ClientV2({ name: 'test-v2', version: '1.0.0' }, { supportedProtocolVersions: [version] });
  const transport = new TransportV2(url, { requestInit });
  await client.connect(transport);
  expect(transport.protocolVersion ?? client.getNegotiatedProtocolVersion?.()).toBe(version);
  return client as unknown as AnyClient;
}

function structured(result: Record<string, unknown>): Record<string, unknown> {
  expect(result.isError).toBeFalsy();
  const data = result.structuredContent as Record<string, unknown>;
  const content = result.content as { type: string; text: string }[];
  expect(content[0]?.type).toBe('text');
  expect(JSON.parse(content[0]!.text)).toEqual(data);
  return data;
}

function errorText(result: Record<string, unknown>): string {
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]!.text;
}

beforeAll(async () => {
  // A long transcript: 400 segments of about 60 characters.
  upstream.players.set(LONG, {
    ...structuredClone(upstream.players.get(VIDEO)!),
    videoId: LONG,
    title: 'A long talk',
    lengthSeconds: 4000,
  });
  const lines: [number, number, string][] = Array.from({ length: 400 }, (_, i) => [
    i * 10_000,
    9_000,
    `Sentence number ${i} of a long talk about many things at length.`,
  ]);
  upstream.texts.set('en-manual-long', json3(lines, false));
  const player = upstream.players.get(LONG)!;
  player.tracks = [{ ...player.tracks[0]!, ref: 'en-manual-long' }];
  running = await serve({
    port: 0,
    app: {
      adminToken: ADMIN,
      logger: silentLogger,
      upstream,
      limits: { reconcileIntervalMs: 0 },
      plans: { bulk: [{ limit: 1000, window: 1 }], tight: [{ limit: 2, window: 3600 }] },
    },
  });
  base = running.url;
});

afterAll(async () => {
  await running.close();
});

const CASES: { kind: 'v1' | 'v2'; version: Version }[] = [
  { kind: 'v1', version: '2025-11-25' },
  { kind: 'v2', version: '2025-06-18' },
  { kind: 'v2', version: '2025-11-25' },
  { kind: 'v2', version: '2026-07-28' },
];

describe.each(CASES)('$kind client, protocol $version', ({ kind, version }) => {
  it('lists every tool with input and output schemas, for free', async () => {
    const key = await createKey(10);
    const client = await connect(kind, key, version);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
    await client.close();
    expect(await balance(key)).toBe(10);
  });

  it('calls every tool, charged as REST charges', async () => {
    const key = await createKey(100);
    const client = await connect(kind, key, version);
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

    const transcript = structured(await call('get_transcript', { video: `https://youtu.be/${VIDEO}` }));
    expect(transcript).toMatchObject({ video_id: VIDEO, language: 'en', format: 'text', has_more: false });
    expect(transcript.content).toBe('[00:00] Hello world.\n[00:02] Second line here.\n');
    expect(await balance(key)).toBe(99);

    const segments = structured(await call('get_transcript', { video: VIDEO, format: 'segments' }));
    expect((segments.segments as unknown[]).length).toBe(2);
    const srt = structured(await call('get_transcript', { video: VIDEO, format: 'srt', languages: ['de'] }));
    expect(srt.content).toContain('Hallo Welt.');
    expect(await balance(key)).toBe(97);

    const languages = structured(await call('list_transcript_languages', { video: VIDEO }));
    expect((languages.languages as unknown[]).length).toBe(3);
    expect(await balance(key)).toBe(97);

    const meta = structured(await call('get_video_metadata', { video: VIDEO }));
    expect(meta).toMatchObject({ video_id: VIDEO, title: 'Never Gonna Give You Up' });
    structured(await call('get_video_info', { video: `https://www.youtube.com/watch?v=${VIDEO}` }));
    expect(await balance(key)).toBe(95);

    const search = structured(await call('search_youtube', { query: 'rick', limit: 2 }));
    expect((search.results as unknown[]).length).toBe(2);
    const latest = structured(await call('list_latest_videos', { channel: CHANNEL }));
    expect(latest.channel_id).toBe(CHANNEL);
    const channel = structured(await call('get_channel', { channel: '@RickAstleyYT' }));
    expect(channel.channel_id).toBe(CHANNEL);
    const playlist = structured(await call('get_playlist', { playlist: PLAYLIST }));
    expect(playlist.playlist_id).toBe(PLAYLIST);
    expect(playlist.has_more).toBe(true);
    const next = structured(await call('get_playlist', { playlist: PLAYLIST, cursor: playlist.next_cursor }));
    expect((next.videos as unknown[]).length).toBeGreaterThan(0);
    expect(await balance(key)).toBe(90);

    const comments = structured(await call('get_comments', { video: VIDEO }));
    expect((comments.comments as unknown[]).length).toBeGreaterThan(0);
    const newest = structured(await call('get_comments', { video: VIDEO, sort_by: 'newest' }));
    expect(newest.video_id).toBe(VIDEO);
    expect(await balance(key)).toBe(88);
    await client.close();
  });

  it('answers failures as free isError results naming the code and the retry advice', async () => {
    const key = await createKey(3);
    const client = await connect(kind, key, version);
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

    expect(errorText(await call('get_transcript', { video: 'n0tAVide0xx' }))).toMatch(
      /video_unavailable.*Retryable: no/s,
    );
    expect(errorText(await call('get_transcript', { video: 'not a video' }))).toContain('invalid_video_id');
    expect(errorText(await call('get_transcript', { video: VIDEO, languages: ['fr'] }))).toContain(
      'language_not_found',
    );
    expect(errorText(await call('get_transcript', { video: VIDEO, cursor: 'AAAA' }))).toContain(
      'invalid_cursor',
    );
    upstream.failures.search = new ApiError('upstream_blocked', 'YouTube refused the request.', {
      retryAfter: 30,
    });
    try {
      expect(errorText(await call('search_youtube', { query: 'x' }))).toMatch(
        /upstream_blocked.*Retryable: yes, after 30 s/s,
      );
    } finally {
      delete upstream.failures.search;
    }
    // Bad arguments never reach the tool: a JSON-RPC error (-32602) naming the field, free.
    await expect(call('search_youtube', { query: 'x', limit: 500 })).rejects.toThrow(
      /Invalid arguments for tool search_youtube: limit/,
    );
    await expect(call('get_transcript', { video: 5 })).rejects.toThrow(/-32602|Invalid arguments/);
    expect(await balance(key)).toBe(3);

    // Out of credits: 402 as a result.
    for (let i = 0; i < 3; i++) structured(await call('get_channel', { channel: CHANNEL }));
    expect(errorText(await call('get_channel', { channel: CHANNEL }))).toContain('insufficient_credits');
    expect(await balance(key)).toBe(0);
    await client.close();
  });

  it('pages a long transcript under max_chars; later pages are free', async () => {
    const key = await createKey(10);
    const client = await connect(kind, key, version);
    const whole = structured(
      await client.callTool({ name: 'get_transcript', arguments: { video: LONG, max_chars: 200_000 } }),
    );
    expect(whole.has_more).toBe(false);
    expect(await balance(key)).toBe(9);

    let cursor: unknown;
    let joined = '';
    let pages = 0;
    do {
      const page = structured(
        await client.callTool({
          name: 'get_transcript',
          arguments: { video: LONG, max_chars: 5000, ...(cursor ? { cursor } : {}) },
        }),
      );
      const content = page.content as string;
      expect(content.length).toBeLessThanOrEqual(5000);
      expect(content.endsWith('\n')).toBe(true);
      joined += content;
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(4);
    expect(joined).toBe(whole.content);
    expect(await balance(key)).toBe(8);
    await client.close();
  });
});

describe('the endpoint', () => {
  it('answers 401 with the challenge without a key, and serves the metadata document', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
    const doc = await fetch(`${base}/.well-known/oauth-protected-resource`);
    expect(doc.status).toBe(200);
    expect(await doc.json()).toEqual({
      resource: base,
      bearer_methods_supported: ['header'],
      resource_documentation: `${base}/docs`,
      resource_name: 'tubescribe',
    });
    const suffixed = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
    };
    expect(suffixed.resource).toBe(`${base}/mcp`);
    const bad = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': 'tsk_nope' },
      body: '{}',
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('answers every method but POST with 405 and Allow: POST, before the key', async () => {
    for (const method of ['GET', 'DELETE', 'HEAD', 'PUT']) {
      const res = await fetch(`${base}/mcp`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('the v1 client reports the 401 when connecting without a key', async () => {
    const client = new ClientV1({ name: 'nokey', version: '1.0.0' });
    await expect(client.connect(new TransportV1(new URL(`${base}/mcp`)))).rejects.toThrow();
  });

  it('refuses a foreign browser Origin (403) and accepts its own', async () => {
    const key = await createKey(1);
    const post = (origin?: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(origin ? { origin } : {}),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          },
        }),
      });
    expect((await post('https://evil.example')).status).toBe(403);
    expect((await post(base)).status).toBe(200);
    expect((await post()).status).toBe(200);
  });

  it('refuses data tools to a transcripts:read key, and lets it read transcripts', async () => {
    const key = await createKey(5, ['transcripts:read']);
    const client = await connect('v2', key, '2025-11-25');
    expect(
      errorText(await client.callTool({ name: 'search_youtube', arguments: { query: 'rick' } })),
    ).toContain('insufficient_scope');
    structured(await client.callTool({ name: 'get_transcript', arguments: { video: VIDEO } }));
    structured(await client.callTool({ name: 'list_transcript_languages', arguments: { video: VIDEO } }));
    expect(await balance(key)).toBe(4);
    await client.close();
  });

  it('counts only tools/call toward the rate limits, and answers a refusal as a free result', async () => {
    const key = await createKey(10, undefined, 'tight');
    const client = await connect('v2', key, '2025-11-25');
    for (let i = 0; i < 3; i++) await client.listTools();
    structured(await client.callTool({ name: 'get_channel', arguments: { channel: CHANNEL } }));
    structured(await client.callTool({ name: 'list_transcript_languages', arguments: { video: VIDEO } }));
    expect(
      errorText(await client.callTool({ name: 'get_channel', arguments: { channel: CHANNEL } })),
    ).toMatch(/rate_limited.*Retryable: yes/s);
    await client.close();
    expect(await adminBalance(key)).toBe(9);
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    const key = await createKey(1);
    const client = await connect('v2', key, '2026-07-28');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/nope/);
    await client.close();
    expect(await balance(key)).toBe(1);
  });

  it('answers 2025-era requests in JSON, not an SSE stream, and charges the call once', async () => {
    const key = await createKey(5);
    const post = (body: object, version?: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(version ? { 'mcp-protocol-version': version } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1.0.0' },
      },
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    expect(init.headers.get('mcp-session-id')).toBeNull(); // stateless
    expect(await init.json()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, '2025-11-25');
    expect(notified.status).toBe(202);
    const call = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_transcript', arguments: { video: VIDEO } },
      },
      '2025-11-25',
    );
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await call.json()) as { id: number; result: Record<string, unknown> };
    expect(answer.id).toBe(2);
    expect(structured(answer.result)).toMatchObject({ video_id: VIDEO, has_more: false });
    expect(await adminBalance(key)).toBe(4);
  });
});

describe('get_transcript translate_to', () => {
  it('passes translate_to through: language is the target, translated_from the source', async () => {
    upstream.texts.set('en-manual.fr', json3([[0, 2000, 'Bonjour le monde.']], false));
    const key = await createKey(10);
    const client = await connect('v2', key, '2025-11-25');
    const call = (args: Record<string, unknown>) =>
      client.callTool({ name: 'get_transcript', arguments: args });
    const translated = structured(await call({ video: VIDEO, translate_to: 'fr' }));
    expect(translated).toMatchObject({
      video_id: VIDEO,
      language: 'fr',
      translated_from: 'en',
      has_more: false,
    });
    expect(translated.content).toBe('[00:00] Bonjour le monde.\n');
    expect(await balance(key)).toBe(9);
    const plain = structured(await call({ video: VIDEO }));
    expect(plain.language).toBe('en');
    expect(plain).not.toHaveProperty('translated_from');
    expect(errorText(await call({ video: VIDEO, translate_to: 'ja' }))).toMatch(/translation_unavailable/);
    expect(await balance(key)).toBe(8);
    await client.close();
  });
});

describe('ledger steps of a tool call', () => {
  it('admits and reserves a priced call in one ledger step, then commits it; a free page costs one hit; a cached first page is paid in one step', async () => {
    const steps: string[] = [];
    const counted = new Set(['hit', 'admit', 'reserve', 'commit', 'release', 'admitPaid']);
    const inner = createEmbeddedLedger({ clock: systemClock });
    const ledger = new Proxy(inner, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function' || !counted.has(String(name))) return value;
        return (...args: unknown[]) => {
          steps.push(String(name));
          return value.apply(target, args);
        };
      },
    });
    const server = await serve({
      port: 0,
      app: {
        adminToken: ADMIN,
        logger: silentLogger,
        upstream,
        ledger,
        limits: { reconcileIntervalMs: 0 },
        plans: { bulk: [{ limit: 1000, window: 1 }] },
      },
    });
    const shared = base;
    base = server.url;
    try {
      const key = await createKey(10);
      const client = await connect('v2', key, '2026-07-28');
      steps.length = 0;
      const first = structured(
        await client.callTool({ name: 'get_transcript', arguments: { video: LONG, max_chars: 5000 } }),
      );
      expect(steps).toEqual(['admit', 'commit']);
      steps.length = 0;
      structured(
        await client.callTool({
          name: 'get_transcript',
          arguments: { video: LONG, max_chars: 5000, cursor: first.next_cursor },
        }),
      );
      expect(steps).toEqual(['hit']);
      expect(await adminBalance(key)).toBe(9);
      // The first page again: made from memory, then admitted and paid in one step, as on REST.
      steps.length = 0;
      const again = structured(
        await client.callTool({ name: 'get_transcript', arguments: { video: LONG, max_chars: 5000 } }),
      );
      expect(steps).toEqual(['admitPaid']);
      expect({ ...again, next_cursor: null }).toEqual({ ...first, next_cursor: null });
      expect(await adminBalance(key)).toBe(8);
      // Over the balance, a cached first page is refused for free, in the same one step.
      const poor = await createKey(0);
      const poorClient = await connect('v2', poor, '2026-07-28');
      steps.length = 0;
      const refused = await poorClient.callTool({
        name: 'get_transcript',
        arguments: { video: LONG, max_chars: 5000 },
      });
      expect(errorText(refused)).toContain('insufficient_credits');
      expect(steps).toEqual(['admitPaid']);
      expect(await adminBalance(poor)).toBe(0);
      await poorClient.close();
      await client.close();
    } finally {
      base = shared;
      await server.close();
    }
  });
});
