/**
 * The client address on Node: the socket's remote address, from the `{ incoming }` environment
 * `@hono/node-server` passes with each request.
 * @module
 */

interface NodeEnv {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** The remote address of the request's socket, or undefined. */
export function nodeClientAddress(_request: Request, env: unknown): string | undefined {
  return (env as NodeEnv | undefined)?.incoming?.socket?.remoteAddress;
}
