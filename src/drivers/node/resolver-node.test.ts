import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deadUdpPort,
  type FakeDns,
  startFakeDns,
  startSilentUdp,
  type Zone,
} from '../../../test/helpers/dns.ts';
import { deliverability } from '../../core/email.ts';
import type { Lookup, MxRecord } from '../../ports/dns.ts';
import { classifyDnsError, createNodeResolver, runtimeNotFound, serverAddress } from './resolver-node.ts';

/** The fake zone: per name, an rcode for every type, or records per type. */
const ZONE: Zone = {
  'mx.test': {
    MX: [
      [20, 'backup.mx.test'],
      [10, 'mail.mx.test'],
    ],
    A: ['192.0.2.10'],
  },
  'nullmx.test': { MX: [[0, '']], A: ['192.0.2.11'] },
  'aonly.test': { A: ['192.0.2.12'] },
  'v6only.test': { AAAA: ['2001:db8::13'] },
  'dual.test': { A: ['192.0.2.14'], AAAA: ['2001:db8::14'] },
  'nodata.test': {},
  'halffail.test': { fail: ['AAAA'] },
  'nx.test': 'NXDOMAIN',
  'servfail.test': 'SERVFAIL',
  'refused.test': 'REFUSED',
};

let dns: FakeDns;
let port: number;
let silent: Awaited<ReturnType<typeof startSilentUdp>>;

beforeAll(async () => {
  dns = await startFakeDns(ZONE);
  port = dns.port;
  silent = await startSilentUdp();
});

afterAll(async () => {
  await dns?.close();
  await silent?.close();
});

const resolver = () => createNodeResolver({ servers: [`udp://127.0.0.1:${port}`], timeoutMs: 2_000 });

describe('node resolver against a fake DNS server', () => {
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
      ['nodata.test', { ok: false, reason: 'nodata' }],
      ['nx.test', { ok: false, reason: 'nxdomain' }],
      ['unknown.test', { ok: false, reason: 'nxdomain' }],
      ['servfail.test', { ok: false, reason: 'failure' }],
      ['refused.test', { ok: false, reason: 'failure' }],
    ];
    const r = resolver();
    for (const [domain, expected] of cases) expect(await r.mx(domain), domain).toEqual(expected);
  });

  it('answers address lookups from A and AAAA', async () => {
    const cases: [string, Lookup<string>][] = [
      ['aonly.test', { ok: true, records: ['192.0.2.12'] }],
      ['v6only.test', { ok: true, records: ['2001:db8::13'] }],
      ['dual.test', { ok: true, records: ['192.0.2.14', '2001:db8::14'] }],
      ['nodata.test', { ok: false, reason: 'nodata' }],
      ['halffail.test', { ok: false, reason: 'failure' }],
      ['nx.test', { ok: false, reason: 'nxdomain' }],
      ['servfail.test', { ok: false, reason: 'failure' }],
    ];
    const r = resolver();
    for (const [domain, expected] of cases) expect(await r.addresses(domain), domain).toEqual(expected);
  });

  it('feeds core deliverability to the expected verdicts', async () => {
    const r = resolver();
    const verdict = async (domain: string) => {
      const mx = await r.mx(domain);
      const needsAddresses = !(mx.ok && mx.records.length > 0) && !(!mx.ok && mx.reason === 'failure');
      return deliverability(mx, needsAddresses ? await r.addresses(domain) : undefined);
    };
    expect(await verdict('mx.test')).toBe('deliverable');
    expect(await verdict('nullmx.test')).toBe('undeliverable');
    expect(await verdict('aonly.test')).toBe('deliverable');
    expect(await verdict('nodata.test')).toBe('undeliverable');
    expect(await verdict('nx.test')).toBe('undeliverable');
    expect(await verdict('servfail.test')).toBe('unknown');
  });

  it('reports failure, never throws, when the server stays silent (bounded by its timeout)', async () => {
    const before = dns.questions.length;
    const r = createNodeResolver({ servers: [`127.0.0.1:${silent.port}`], timeoutMs: 300 });
    expect(await r.mx('mx.test')).toEqual({ ok: false, reason: 'failure' });
    expect(await r.addresses('mx.test')).toEqual({ ok: false, reason: 'failure' });
    expect(dns.questions.length).toBe(before);
    expect(silent.received()).toBeGreaterThan(0);
  });

  it('reports failure when nothing listens on the port', async () => {
    const r = createNodeResolver({ servers: [`127.0.0.1:${await deadUdpPort()}`], timeoutMs: 300 });
    expect(await r.mx('mx.test')).toEqual({ ok: false, reason: 'failure' });
  });

  it('rejects invalid server addresses at creation', () => {
    expect(() => createNodeResolver({ servers: ['not an address'] })).toThrow(/TUBESCRIBE_DNS/);
  });
});

describe('error mapping', () => {
  it('maps node:dns codes, with the runtime meaning of ENOTFOUND', () => {
    expect(classifyDnsError({ code: 'ENOTFOUND' }, 'nxdomain')).toBe('nxdomain');
    expect(classifyDnsError({ code: 'ENOTFOUND' }, 'nodata')).toBe('nodata');
    expect(classifyDnsError({ code: 'ENOTFOUND' }, 'failure')).toBe('failure');
    for (const code of ['ESERVFAIL', 'EREFUSED', 'ETIMEOUT', 'ECONNREFUSED', 'EBADRESP', undefined]) {
      expect(classifyDnsError({ code }, 'nxdomain'), String(code)).toBe('failure');
    }
    expect(classifyDnsError({ code: 'ENODATA' })).toBe('nodata');
    expect(classifyDnsError(new Error('boom'))).toBe('failure');
    expect(runtimeNotFound()).toBe('nxdomain');
  });

  it('accepts udp:// server URLs', () => {
    expect(serverAddress('udp://127.0.0.1:5353')).toBe('127.0.0.1:5353');
    expect(serverAddress('UDP://[::1]:53/')).toBe('[::1]:53');
    expect(serverAddress('9.9.9.9')).toBe('9.9.9.9');
  });
});
