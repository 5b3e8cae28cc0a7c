/**
 * The client address on Bun: `server.requestIP(request)`, the server being what `Bun.serve`
 * passes to `fetch` as its second argument.
 * @module
 */

interface BunServerLike {
  requestIP?: (request: Request) => { address: string } | null;
}

/** The address `Bun.serve`'s server reports for `request`, or undefined. */
export function bunClientAddress(request: Request, env: unknown): string | undefined {
  const server = env as BunServerLike | undefined;
  if (typeof server?.requestIP !== 'function') return undefined;
  try {
    return server.requestIP(request)?.address;
  } catch {
    return undefined; // a server object of another kind
  }
}
