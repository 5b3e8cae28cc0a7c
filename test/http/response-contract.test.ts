/**
 * The response contract: every route declares its success body (a valibot schema that
 * `/openapi.json` carries as JSON Schema), every error status it can answer with examples in the
 * envelope, and the test apps' hook (test/helpers/response-check.ts) fails a call whose 2xx
 * answer breaks the declaration, with a message naming the route and the mismatch.
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import type { RouteMeta } from '../../src/http/route.ts';
import { isJsonType } from '../../src/http/schemas-openapi.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { expectJson, fixture, isEnvelope } from '../helpers/http.ts';
import {
  contractProblem,
  declaredRoutes,
  ResponseContractError,
  routeOf,
} from '../helpers/response-check.ts';

type Operation = {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
  requestBody?: unknown;
  security?: unknown[];
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: {
    responses: Record<
      string,
      { content: { 'application/json': { examples: Record<string, { value: unknown }> } } }
    >;
  };
};

const meta = (schema: v.GenericSchema): RouteMeta => ({
  method: 'get',
  path: '/v1/things/{id}',
  tags: ['Test'],
  summary: 'A thing',
  auth: 'none',
  response: { status: 200, description: 'A thing', contentTypes: ['application/json'], schema },
  errors: [],
});

describe('the response check', () => {
  test('names the route, the field and the mismatch of a body that breaks the schema', async () => {
    const route = meta(v.strictObject({ id: v.pipe(v.string(), v.regex(/^t_/)), n: v.number() }));
    const ok = Response.json({ id: 't_1', n: 2 });
    expect(await contractProblem(route, ok)).toBeUndefined();
    const bad = await contractProblem(route, Response.json({ id: 'x', n: '2', extra: true }));
    expect(bad).toMatch(/^GET \/v1\/things\/\{id\} answered 200 with a body that does not match/);
    expect(bad).toMatch(/\bid: Invalid format/);
    expect(bad).toMatch(/\bn: Invalid type/);
    expect(bad).toMatch(/\bextra: /);
  });

  test('refuses undeclared statuses and content types, JSON without a schema, unlisted errors and bare errors', async () => {
    const route = meta(v.object({}));
    expect(await contractProblem(route, Response.json({}, { status: 201 }))).toMatch(
      /answered 201; it declares 200/,
    );
    const text = new Response('hi', { headers: { 'content-type': 'text/plain' } });
    expect(await contractProblem(route, text)).toMatch(/as 'text\/plain'; it declares application\/json/);
    const bare: RouteMeta = { ...route, response: { ...route.response } };
    delete bare.response.schema;
    expect(await contractProblem(bare, Response.json({}))).toMatch(/declares no response schema/);
    const unlisted = Response.json(
      { error: { code: 'video_unavailable', message: 'Gone.', retryable: false } },
      { status: 404 },
    );
    expect(await contractProblem(route, unlisted)).toMatch(
      /answered 404, which its OpenAPI entry does not list \(405, 413, 500\)/,
    );
    const listed: RouteMeta = { ...route, errors: [404] };
    expect(await contractProblem(listed, unlisted.clone())).toBeUndefined();
    const bareError = Response.json({ error: 'Gone.', status: 404 }, { status: 404 });
    expect(await contractProblem(listed, bareError)).toMatch(/answered 404 without the error envelope/);
  });

  test('fails a real call whose answer breaks the contract (a channel id YouTube never sends)', async () => {
    const f = await fixture();
    f.upstream.players.get(VIDEO)!.channelId = 'not-a-channel';
    const call = f.get(`/v1/videos/${VIDEO}/basic-info`);
    await expect(call).rejects.toThrow(ResponseContractError);
    await expect(f.get(`/v1/videos/${VIDEO}/basic-info`)).rejects.toThrow(/channel_id: Invalid format/);
  });

  test('matches requests to the most specific declared route', async () => {
    const f = await fixture();
    const routes = declaredRoutes(f.ts);
    const at = (method: string, path: string) => routeOf(routes, method, `http://localhost${path}`)?.path;
    expect(at('POST', '/v1/transcripts/batch')).toBe('/v1/transcripts/batch');
    expect(at('GET', '/v1/transcripts/abc/languages')).toBe('/v1/transcripts/{videoId}/languages');
    expect(at('GET', '/v1/videos/abc')).toBe('/v1/videos/{id}');
    expect(at('GET', '/mcp')).toBeUndefined();
  });
});

describe('the declared contract', () => {
  test('every route declares a schema for each JSON success body', async () => {
    const f = await fixture();
    const missing = declaredRoutes(f.ts)
      .map((r) => r.meta)
      .filter(
        (m) => m.response.status !== 204 && m.response.contentTypes.some(isJsonType) && !m.response.schema,
      )
      .map((m) => `${m.method} ${m.path}`);
    expect(missing).toEqual([]);
  });

  test('/openapi.json carries every success schema and every error status, with enveloped examples', async () => {
    const f = await fixture();
    const doc = await expectJson<Doc>(await f.call('/openapi.json'));
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const name = `${method} ${path}`;
        const statuses = Object.keys(op.responses);
        for (const status of statuses.filter((s) => s.startsWith('2'))) {
          const json = op.responses[status]?.content?.['application/json'];
          if (json) expect(json.schema, `${name} ${status}`).toBeDefined();
        }
        expect(statuses, name).toEqual(expect.arrayContaining(['405', '413', '500']));
        if (op.requestBody) expect(statuses, name).toEqual(expect.arrayContaining(['400', '415']));
        if (op.security?.length)
          expect(statuses, name).toEqual(expect.arrayContaining(['401', '429', '503']));
      }
    }
    for (const [name, response] of Object.entries(doc.components.responses)) {
      const examples = Object.values(response.content['application/json'].examples);
      expect(examples.length, name).toBeGreaterThan(0);
      for (const example of examples) expect(isEnvelope(example.value), name).toBe(true);
    }
    expect(Object.keys(doc.components.responses.E415!.content['application/json'].examples)).toEqual([
      'unsupported_media_type',
    ]);
  });

  test('ids, handles, cursors, hl and gl carry patterns or lengths', async () => {
    const f = await fixture();
    const doc = await expectJson<Doc>(await f.call('/openapi.json'));
    const params = (path: string) =>
      (doc.paths[path]!.get as unknown as { parameters: { name: string; schema: Record<string, unknown> }[] })
        .parameters;
    const bounded = (schema: Record<string, unknown> | undefined) =>
      schema !== undefined && (typeof schema.pattern === 'string' || typeof schema.maxLength === 'number');
    for (const [path, names] of [
      ['/v1/channels/{id}/videos', ['id', 'cursor', 'continuation', 'gl', 'hl']],
      ['/v1/videos/{id}/comments', ['id', 'cursor', 'gl', 'hl']],
      ['/v1/playlists/{id}', ['id', 'cursor']],
      ['/v1/batch/{id}', ['id']],
      ['/admin/accounts/{account_id}', ['account_id']],
    ] as const) {
      for (const name of names)
        expect(bounded(params(path).find((p) => p.name === name)?.schema), `${path} ${name}`).toBe(true);
    }
    expect(params('/v1/search').find((p) => p.name === 'gl')?.schema.pattern).toBe('^[A-Za-z]{2}$');
  });
});
