/**
 * tubescribe as a plain `node:http` request listener.
 *
 *   node --import tsx examples/node-http.ts
 */
import { createServer } from 'node:http';
import { createHandler } from '../adapters/node/index.ts';

const server = createServer(createHandler({ adminToken: process.env.TUBESCRIBE_ADMIN_TOKEN ?? 'change-me' }));
server.listen(8787, '127.0.0.1', () => console.log('listening on http://127.0.0.1:8787'));
