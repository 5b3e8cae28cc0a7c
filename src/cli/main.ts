#!/usr/bin/env node
/**
 * The `tubescribe` command: `serve`, and (with the HTTP issue) `keys` and `credits`.
 * @module
 */
import { serve } from '../../adapters/node/index.ts';

const USAGE = `Usage: tubescribe <command> [options]

Commands:
  serve                 start the HTTP server (settings from TUBESCRIBE_* variables;
                        a flag of the same name overrides one: --port 9000)
  help                  print this text

Environment:
  TUBESCRIBE_PORT       listening port (default 8787; 0 = any free port)
  TUBESCRIBE_HOST       listening address (default 127.0.0.1)
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (command === 'serve') {
    const flags = parseFlags(rest);
    const port = Number(flags.port ?? process.env.TUBESCRIBE_PORT ?? 8787);
    const host = flags.host ?? process.env.TUBESCRIBE_HOST ?? '127.0.0.1';
    const running = await serve({ port, host });
    process.stdout.write(`tubescribe listening on ${running.url}\n`);
    const stop = () => {
      running.close().then(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return -1;
  }
  process.stderr.write(`tubescribe: unknown command '${command}'\n\n${USAGE}`);
  return 2;
}

function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else flags[arg.slice(2)] = args[++i] ?? '';
  }
  return flags;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tubescribe: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
