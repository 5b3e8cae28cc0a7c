import { createServer } from 'node:http';
import dns2 from 'dns2';
import { describe, expect, it } from 'vitest';
import { createResolver } from './resolver.ts';

const { Packet } = dns2;

describe('createResolver', () => {
  it('off → undefined (no deliverability lookups)', () => {
    expect(createResolver('off')).toBeUndefined();
    expect(createResolver(' OFF ')).toBeUndefined();
  });

  it('system → a resolver (created without any lookup)', () => {
    const resolver = createResolver('system');
    expect(typeof resolver?.mx).toBe('function');
    expect(typeof resolver?.addresses).toBe('function');
  });

  it('udp://IP:PORT → node:dns asking that server', async () => {
    const server = dns2.createServer({
      udp: true,
      handle(request, send) {
        const response = Packet.createResponseFromRequest(request);
        const question = request.questions[0]!;
        if (question.type === Packet.TYPE.MX) {
          response.answers.push(
            Packet.createResourceFromQuestion(question, {
              type: Packet.TYPE.MX,
              class: Packet.CLASS.IN,
              ttl: 1,
              priority: 5,
              exchange: 'mx.udp.test',
            }),
          );
        }
        void send(response);
      },
    });
    const { udp } = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    try {
      const resolver = createResolver(`udp://127.0.0.1:${udp!.port}`, { timeoutMs: 2_000 });
      expect(await resolver?.mx('udp.test')).toEqual({
        ok: true,
        records: [{ priority: 5, exchange: 'mx.udp.test' }],
      });
    } finally {
      await server.close();
    }
  });

  it('http(s):// → DNS-over-HTTPS', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/dns-json' }).end(JSON.stringify({ Status: 3 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const resolver = createResolver(`http://127.0.0.1:${port}/dns-query`);
      expect(await resolver?.mx('nx.test')).toEqual({ ok: false, reason: 'nxdomain' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('anything else → an Error naming the accepted forms', () => {
    for (const spec of [
      '',
      'on',
      'google',
      'tcp://9.9.9.9:53',
      'udp://dns.example:53',
      'udp://9.9.9.9:53/x',
      '9.9.9.9',
    ]) {
      expect(() => createResolver(spec), spec).toThrow(/TUBESCRIBE_DNS/);
    }
  });
});
