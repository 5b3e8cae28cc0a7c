/**
 * tubescribe on Deno Deploy (or `deno run --allow-net --allow-env examples/deno-deploy.ts`).
 * Deploy calls the default export's `fetch`; the connection info carries the client address.
 */
import { createHandler } from '../adapters/deno/index.ts';

const env = (globalThis as { Deno?: { env: { get(name: string): string | undefined } } }).Deno?.env;

export default { fetch: createHandler({ adminToken: env?.get('TUBESCRIBE_ADMIN_TOKEN') ?? 'change-me' }) };
