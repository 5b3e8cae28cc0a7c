/**
 * A fake DNS server (the `dns2` package) on 127.0.0.1 for tests: answers MX, A and AAAA from a
 * zone table (or an rcode per name), records every question, and a UDP socket that never answers.
 */
import { createSocket } from 'node:dgram';
import dns2 from 'dns2';

const { Packet } = dns2;
/** Response codes (dns2's typings lack `Packet.RCODE`). */
export const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** An rcode answered for every question about a name. */
export type Rcode = keyof typeof RCODE;

/** A name's records: MX as `[priority, exchange]` (`''` = null MX); `fail` lists types answered SERVFAIL. */
export interface ZoneEntry {
  MX?: [number, string][];
  A?: string[];
  AAAA?: string[];
  fail?: ('MX' | 'A' | 'AAAA')[];
}

/** The fake zone: per lower-cased name, records or an rcode. Unknown names are NXDOMAIN. */
export type Zone = Record<string, Rcode | ZoneEntry>;

/** One question the server received. */
export interface DnsQuestion {
  name: string;
  type: 'MX' | 'A' | 'AAAA' | 'other';
}

/** A running {@link startFakeDns}. */
export interface FakeDns {
  port: number;
  /** `udp://127.0.0.1:PORT` (a `TUBESCRIBE_DNS` value). */
  url: string;
  /** Every question, in arrival order. */
  questions: DnsQuestion[];
  close(): Promise<void>;
}

function typeName(type: number): DnsQuestion['type'] {
  if (type === Packet.TYPE.MX) return 'MX';
  if (type === Packet.TYPE.A) return 'A';
  if (type === Packet.TYPE.AAAA) return 'AAAA';
  return 'other';
}

/** Starts a UDP DNS server on 127.0.0.1 (port 0) answering from `zone`. */
export async function startFakeDns(zone: Zone): Promise<FakeDns> {
  const questions: DnsQuestion[] = [];
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0]!;
      const type = typeName(question.type);
      questions.push({ name: question.name.toLowerCase(), type });
      const entry = zone[question.name.toLowerCase()];
      const answer = (record: { type: number; address?: string; priority?: number; exchange?: string }) =>
        response.answers.push(
          Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: 1, ...record }),
        );
      if (entry === undefined) response.header.rcode = RCODE.NXDOMAIN;
      else if (typeof entry === 'string') response.header.rcode = RCODE[entry];
      else if (type !== 'other' && entry.fail?.includes(type)) response.header.rcode = RCODE.SERVFAIL;
      else if (type === 'MX') {
        for (const [priority, exchange] of entry.MX ?? [])
          answer({ type: Packet.TYPE.MX, priority, exchange });
      } else if (type === 'A') {
        for (const address of entry.A ?? []) answer({ type: Packet.TYPE.A, address });
      } else if (type === 'AAAA') {
        for (const address of entry.AAAA ?? []) answer({ type: Packet.TYPE.AAAA, address });
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp!.port;
  return { port, url: `udp://127.0.0.1:${port}`, questions, close: () => server.close() };
}

/** A UDP socket on 127.0.0.1 that receives queries and never answers (a DNS timeout). */
export async function startSilentUdp(): Promise<{
  port: number;
  received: () => number;
  close(): Promise<void>;
}> {
  const socket = createSocket('udp4');
  let received = 0;
  socket.on('message', () => {
    received++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    received: () => received,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A UDP port on 127.0.0.1 where nothing listens (bound once, then closed). */
export async function deadUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
