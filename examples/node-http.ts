/**
 * tubescribe as a plain `node:http` request listener.
 *
 *   TUBESCRIBE_ADMIN_TOKEN=… TUBESCRIBE_PORT=8787 node --import tsx examples/node-http.ts
 *
 * It reaches YouTube; pass `upstream: createFixturesUpstream('fixtures/demo')` to try it offline,
 * as the Express example does.
 */
import { createServer } from 'node:http';
import { createHandler } from '../adapters/node/index.ts';

const adminToken = process.env.TUBESCRIBE_ADMIN_TOKEN; // unset: the admin API is off
const port = Number(process.env.TUBESCRIBE_PORT ?? 8787);
const server = createServer(createHandler(adminToken ? { adminToken } : {}));
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
