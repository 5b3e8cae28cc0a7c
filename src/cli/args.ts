/**
 * Command-line arguments: positionals and `--flag value` / `--flag=value` options; a flag may
 * repeat or take several values (`--scope a b --scope c`).
 * @module
 */

/** Parsed arguments. */
export interface Args {
  positionals: string[];
  flags: Map<string, string[]>;
}

/** Parses `argv` (without the node and script entries). */
export function parseArgs(argv: readonly string[]): Args {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const arg of argv) {
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = (eq > 0 ? arg.slice(2, eq) : arg.slice(2)).toLowerCase();
      current = flags.get(name) ?? [];
      flags.set(name, current);
      if (eq > 0) {
        current.push(arg.slice(eq + 1));
        current = undefined;
      }
    } else if (current) {
      current.push(arg);
    } else {
      positionals.push(arg);
    }
  }
  return { positionals, flags };
}

/** The last value of a flag, or undefined. A flag given without a value yields ''. */
export function flag(args: Args, name: string): string | undefined {
  const values = args.flags.get(name);
  if (!values) return undefined;
  return values.length === 0 ? '' : values[values.length - 1];
}

/** Every value of a flag (values may also be comma-separated). */
export function flagList(args: Args, name: string): string[] {
  return (args.flags.get(name) ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
