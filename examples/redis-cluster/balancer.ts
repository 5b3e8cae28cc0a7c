/**
 * A tiny round-robin HTTP load balancer on `node:http`: each request goes to the next backend in
 * turn, streamed both ways. It adds `X-Forwarded-For` (so the backends, started with
 * `TUBESCRIBE_TRUST_PROXY=1`, see the real client address) and answers with `X-Served-By`
 * naming the backend, to show the spreading. For a demo: use nginx, HAProxy or a cloud load
 * balancer in production.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running balancer. */
export interface Balancer {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Starts the balancer in front of `backends` (`http://host:port` URLs) on `host:port`. */
export async function startBalancer(
  backends: readonly string[],
  port = 0,
  host = '127.0.0.1',
): Promise<Balancer> {
  if (backends.length === 0) throw new Error('The balancer needs at least one backend.');
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % backends.length;
    const target = new URL(req.url ?? '/', backends[index]);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host, 'x-forwarded-for': forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': `instance-${index}` });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 'bad_gateway', message: 'Backend unreachable.', retryable: true },
          }),
        );
      } else {
        res.destroy();
      }
    });
    req.on('aborted', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
