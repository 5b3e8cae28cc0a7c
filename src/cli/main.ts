#!/usr/bin/env node
/**
 * The `tubescribe` command: `serve`, `keys create|revoke`, `credits grant`.
 * @module
 */
import process from 'node:process';
import { ApiError } from '../errors.ts';
import { creditsGrant, describeError, keysCreate, keysRevoke } from './admin.ts';
import { parseArgs } from './args.ts';
import { ConfigError, checkFlags, loadConfig } from './config.ts';
import { runServe } from './serve.ts';

const USAGE = `Usage: tubescribe <command> [options]

Commands:
  serve                                      start the HTTP server
  keys create [--credits N] [--plan P] [--scope S…]   create an API key (printed on stdout)
  keys revoke KEY_ID                         revoke a key
  credits grant ACCOUNT_ID (--amount N | --pack P)     add credits (a pack also moves to paid)
  help                                       print this text

Settings come from environment variables; a flag of the same name overrides one
(TUBESCRIBE_PORT ↔ --port 9000, TUBESCRIBE_ADMIN_TOKEN ↔ --admin-token …):
  TUBESCRIBE_PORT            listening port (default 8787; 0 = any free port)
  TUBESCRIBE_HOST            listening address (default 127.0.0.1)
  TUBESCRIBE_STORAGE         memory | fs:<dir> | redis://… (default fs:./.tubescribe)
  TUBESCRIBE_UPSTREAM        youtube | fixtures:<dir> (default youtube)
  TUBESCRIBE_YOUTUBE_ORIGIN  replace every YouTube host (tests, reverse proxies)
  TUBESCRIBE_PROXY           outbound HTTP(S) proxy URL(s), comma-separated to rotate
  TUBESCRIBE_POT_PROVIDER    bgutil PO-token provider for WEB captions (http://host:4416)
  TUBESCRIBE_ADMIN_TOKEN     bearer token for /admin/* (unset = admin API off)
  TUBESCRIBE_METRICS_TOKEN   bearer token for GET /metrics, besides the admin token
  TUBESCRIBE_SECRET          HMAC secret (≥ 32 bytes; default generated once, kept in storage)
  TUBESCRIBE_MAILER          console | smtp://user:pass@host:port | an HTTP mail API
  TUBESCRIBE_DNS             system | off | udp://HOST:PORT | https://… (DoH)
  TUBESCRIBE_LOG             debug | info | warn | error | silent (JSON lines on stderr)
  TUBESCRIBE_TRUST_PROXY     reverse proxies in front whose X-Forwarded-For is trusted (default 0)
  TUBESCRIBE_PUBLIC_URL      public base URL for links in /docs and responses (unset: the
                             forwarded host behind TUBESCRIBE_TRUST_PROXY, else relative links)
  TUBESCRIBE_CORS_ORIGINS    origins allowed to call from browsers: * or a comma-separated list
                             (default none: CORS off)
  TUBESCRIBE_SIGNUP          agent sign-up: on | paused | off (default on; always off with the
                             console mailer on a non-loopback TUBESCRIBE_HOST)
  TUBESCRIBE_WEBHOOK_PRIVATE batch webhooks to private/loopback addresses: allow | deny (default deny)
  TUBESCRIBE_DASHBOARD       the web dashboard at /dashboard: on | off (default on)
  TUBESCRIBE_PLANS           rate-limit plans as JSON: {"team":[{"limit":20,"window":1}]}
  TUBESCRIBE_DEFAULT_PLAN    the plan of new accounts (default free)
  TUBESCRIBE_BATCH_CONCURRENCY batch tasks at once on this instance (default 10; 0 with
                             redis:// storage: none, other instances do the batch work)
  TUBESCRIBE_YOUTUBE_CLIENTS JSON overrides of the InnerTube client profiles
The keys and credits commands use the same storage and plans as the server.
`;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command, sub] = args.positionals;
  if (command === undefined || command === 'help' || args.flags.has('help') || args.flags.has('h')) {
    process.stdout.write(USAGE);
    return command === undefined && !args.flags.has('help') ? 1 : 0;
  }
  const config = loadConfig(args, process.env);
  if (command === 'serve') {
    checkFlags(args, 'serve');
    await runServe(config);
    return 0;
  }
  if (command === 'keys' && sub === 'create') {
    await keysCreate(args, config);
    return 0;
  }
  if (command === 'keys' && sub === 'revoke') {
    await keysRevoke(args, config);
    return 0;
  }
  if (command === 'credits' && sub === 'grant') {
    await creditsGrant(args, config);
    return 0;
  }
  process.stderr.write(`tubescribe: unknown command '${args.positionals.join(' ')}'\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Done: a handle something left open (a keep-alive socket) must not keep the process alive.
    setTimeout(() => process.exit(code), 1_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`tubescribe: ${describeError(error)}\n`);
    process.exitCode = error instanceof ConfigError ? 2 : error instanceof ApiError ? 3 : 1;
  },
);
