/**
 * The client address on Deno and Deno Deploy: the `remoteAddr` of the connection info that
 * `Deno.serve` (and Deploy) pass to the handler as its second argument.
 * @module
 */

interface DenoInfo {
  remoteAddr?: { hostname?: string };
}

/** The remote host of the connection, or undefined. */
export function denoClientAddress(_request: Request, env: unknown): string | undefined {
  return (env as DenoInfo | undefined)?.remoteAddr?.hostname;
}
