/**
 * A TCP proxy on 127.0.0.1 between tubescribe and Redis that a test can cut and restore, to play
 * "Redis is unreachable" and "Redis drops connections" without touching the real Redis.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/** The proxy. */
export interface TcpProxy {
  /** `redis://127.0.0.1:<port>` (plus the path and query of the target URL). */
  url: string;
  port: number;
  /** Connections opened through the proxy so far. */
  readonly accepted: number;
  /** Destroys every open connection and refuses new ones until {@link restore}. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/** Starts a proxy to the Redis of `target` (a `redis://host:port/…` URL). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const parsed = new URL(target);
  const host = parsed.hostname || '127.0.0.1';
  const targetPort = Number(parsed.port || 6379);
  const sockets = new Set<Socket>();
  let accepted = 0;
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    accepted++;
    const upstream = tcpConnect(targetPort, host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await listen(server, 0);
  const url = `redis://127.0.0.1:${port}${parsed.pathname}${parsed.search}`;
  return {
    url,
    port,
    get accepted() {
      return accepted;
    },
    async cut() {
      refusing = true;
      // Stop listening too, so new connections are refused (ECONNREFUSED), not accepted and dropped.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
    async restore() {
      refusing = false;
      if (!server.listening) await listen(server, port);
    },
    async close() {
      refusing = true;
      const closed = server.listening
        ? new Promise<void>((resolve) => server.close(() => resolve()))
        : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
  };
}
