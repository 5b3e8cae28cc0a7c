import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lookup, MxRecord } from '../ports/dns.ts';
import { createDohResolver, dohLookup, mergeAddressLookups, parseMxData } from './resolver-doh.ts';

const TYPE = { MX: 15, A: 1, AAAA: 28, CNAME: 5 } as const;
type Answer = { type: number; data: string };
/** The fake zone: per name, a Status for every type, or answers per asked type. */
const ZONE: Record<string, number | Partial<Record<'MX' | 'A' | 'AAAA', Answer[]>>> = {
  'mx.test': {
    MX: [
      { type: TYPE.MX, data: '20 backup.mx.test.' },
      { type: TYPE.MX, data: '10 Mail.MX.test.' },
    ],
  },
  'nullmx.test': { MX: [{ type: TYPE.MX, data: '0 .' }] },
  'aonly.test': { A: [{ type: TYPE.A, data: '192.0.2.12' }] },
  'v6only.test': { AAAA: [{ type: TYPE.AAAA, data: '2001:db8::13' }] },
  'alias.test': {
    A: [
      { type: TYPE.CNAME, data: 'aonly.test.' },
      { type: TYPE.A, data: '192.0.2.12' },
    ],
    MX: [{ type: TYPE.CNAME, data: 'aonly.test.' }],
  },
  'nodata.test': {},
  'nx.test': 3,
  'servfail.test': 2,
};

let origin: string;
const seen: { url: URL; headers: IncomingHttpHeaders }[] = [];
const sockets = new Set<Socket>();
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  seen.push({ url, headers: req.headers });
  const name = url.searchParams.get('name') ?? '';
  const type = (url.searchParams.get('type') ?? '') as 'MX' | 'A' | 'AAAA';
  if (name === 'http500.test') return void res.writeHead(500).end('{"Status":0}');
  if (name === 'garbage.test') return void res.writeHead(200).end('<html>not json</html>');
  if (name === 'silent.test') return; // never answers
  const entry = ZONE[name] ?? 3;
  const body =
    typeof entry === 'number'
      ? { Status: entry, Question: [{ name, type: TYPE[type] }] }
      : {
          Status: 0,
          Question: [{ name, type: TYPE[type] }],
          ...(entry[type] ? { Answer: entry[type] } : {}),
        };
  res.writeHead(200, { 'content-type': 'application/dns-json' }).end(JSON.stringify(body));
});
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('DoH resolver against a fake DoH JSON server', () => {
  it('asks GET ?name=&type= with Accept: application/dns-json, keeping the URL’s own query', async () => {
    seen.length = 0;
    await createDohResolver(`${origin}/resolve?ct=application/dns-json`).mx('mx.test');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url.pathname).toBe('/resolve');
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      ct: 'application/dns-json',
      name: 'mx.test',
      type: 'MX',
    });
    expect(seen[0]?.headers.accept).toBe('application/dns-json');
  });

  it('answers MX lookups', async () => {
    const cases: [string, Lookup<MxRecord>][] = [
      [
        'mx.test',
        {
          ok: true,
          records: [
            { priority: 10, exchange: 'mail.mx.test' },
            { priority: 20, exchange: 'backup.mx.test' },
          ],
        },
      ],
      ['nullmx.test', { ok: true, records: [{ priority: 0, exchange: '' }] }],
      ['aonly.test', { ok: false, reason: 'nodata' }],
      ['alias.test', { ok: false, reason: 'nodata' }],
      ['nx.test', { ok: false, reason: 'nxdomain' }],
      ['servfail.test', { ok: false, reason: 'failure' }],
      ['http500.test', { ok: false, reason: 'failure' }],
      ['garbage.test', { ok: false, reason: 'failure' }],
    ];
    const r = createDohResolver(`${origin}/resolve`);
    for (const [domain, expected] of cases) expect(await r.mx(domain), domain).toEqual(expected);
  });

  it('answers address lookups from A and AAAA', async () => {
    const cases: [string, Lookup<string>][] = [
      ['aonly.test', { ok: true, records: ['192.0.2.12'] }],
      ['v6only.test', { ok: true, records: ['2001:db8::13'] }],
      ['alias.test', { ok: true, records: ['192.0.2.12'] }],
      ['nodata.test', { ok: false, reason: 'nodata' }],
      ['nx.test', { ok: false, reason: 'nxdomain' }],
      ['servfail.test', { ok: false, reason: 'failure' }],
    ];
    const r = createDohResolver(`${origin}/resolve`);
    for (const [domain, expected] of cases) expect(await r.addresses(domain), domain).toEqual(expected);
  });

  it('reports failure within its timeout when the server never answers', async () => {
    const r = createDohResolver(`${origin}/resolve`, { timeoutMs: 300 });
    expect(await r.mx('silent.test')).toEqual({ ok: false, reason: 'failure' });
    expect(await r.addresses('silent.test')).toEqual({ ok: false, reason: 'failure' });
  });

  it('reports failure when nothing listens', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const { port } = dead.address() as { port: number };
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const r = createDohResolver(`http://127.0.0.1:${port}/resolve`, { timeoutMs: 2_000 });
    expect(await r.mx('mx.test')).toEqual({ ok: false, reason: 'failure' });
  });

  it('rejects a URL that is not http(s) at creation', () => {
    expect(() => createDohResolver('udp://9.9.9.9')).toThrow(/TUBESCRIBE_DNS/);
    expect(() => createDohResolver('nonsense')).toThrow(/TUBESCRIBE_DNS/);
  });
});

describe('DoH answer parsing', () => {
  it('parses MX data', () => {
    expect(parseMxData('10 mx.example.com.')).toEqual({ priority: 10, exchange: 'mx.example.com' });
    expect(parseMxData('0 .')).toEqual({ priority: 0, exchange: '' });
    for (const bad of ['', 'mx.example.com', '70000 mx.example.com.', '10 a b'])
      expect(parseMxData(bad)).toBeUndefined();
  });

  it('maps Status and malformed bodies', () => {
    const id = (data: string) => data;
    expect(dohLookup({ Status: 0, Answer: [{ type: 1, data: '192.0.2.1' }] }, 1, id)).toEqual({
      ok: true,
      records: ['192.0.2.1'],
    });
    expect(dohLookup({ Status: 0 }, 1, id)).toEqual({ ok: false, reason: 'nodata' });
    expect(dohLookup({ Status: 3 }, 1, id)).toEqual({ ok: false, reason: 'nxdomain' });
    for (const body of [null, 'x', { Status: 2 }, { Status: 5 }, {}, { Status: 0, Answer: 'x' }]) {
      expect(dohLookup(body, 1, id)).toEqual({ ok: false, reason: 'failure' });
    }
  });

  it('merges A and AAAA lookups', () => {
    const nx = { ok: false, reason: 'nxdomain' } as const;
    const nodata = { ok: false, reason: 'nodata' } as const;
    const failure = { ok: false, reason: 'failure' } as const;
    const found = { ok: true, records: ['192.0.2.1'] } as const;
    expect(mergeAddressLookups({ ...found, records: [...found.records] }, failure)).toEqual(found);
    expect(mergeAddressLookups(nx, nx)).toEqual(nx);
    expect(mergeAddressLookups(nx, nodata)).toEqual(nodata);
    expect(mergeAddressLookups(nodata, nodata)).toEqual(nodata);
    expect(mergeAddressLookups(nodata, failure)).toEqual(failure);
    expect(mergeAddressLookups(failure, nx)).toEqual(failure);
  });
});
