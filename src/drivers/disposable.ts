/**
 * The disposable-domain list for sign-up: the `disposable-domains` npm package (a JSON array of
 * domain suffixes, maintained at github.com/tompec/disposable-email-domains).
 *
 * The list (~2.7 MB) is imported lazily with a static `import(…, { with: { type: 'json' } })`:
 * bundlers keep the package external (it is a dependency), so it is not copied into `dist`, and
 * it is only read when sign-up first runs. The specifier is a literal so Deno and Deno Deploy can
 * see it in the module graph; the form works on Node ≥ 20.10, Bun and Deno. A bundler targeting
 * ES2022 (tsup/esbuild with `target: 'es2022'`) silently drops the import attributes, and Node then
 * refuses the JSON import; in that case the list is read with Node's `createRequire` instead.
 * @module
 */

/** Name, version, size and publication date of the list this release was tested with (for the docs). */
export interface DisposableListInfo {
  /** The npm package. */
  name: string;
  /** The installed version. */
  version: string;
  /** Number of domains in that version. */
  size: number;
  /** The registry's publication date of that version (ISO 8601 day). */
  published: string;
  /** Where the list is maintained. */
  source: string;
}

/**
 * The disposable-domain list tubescribe was tested with. `disposable.test.ts` checks `version`
 * and `size` against the installed package, so an upgrade of the package updates this constant.
 * A newer 2.x installed by a user is used as it is; this constant only documents the tested one.
 */
export const DISPOSABLE_LIST: DisposableListInfo = {
  name: 'disposable-domains',
  version: '2.0.1',
  size: 133_604,
  published: '2026-08-24',
  source: 'https://github.com/tompec/disposable-email-domains',
};

/** Answers whether one exact domain is on the list (see core's `isDisposableDomain` for the walk). */
export type DisposableLookup = (domain: string) => boolean;

let loading: Promise<DisposableLookup> | undefined;

/** What is used of Node's `module` built-in. */
interface NodeModuleBuiltin {
  createRequire(from: string): (id: string) => unknown;
}

/**
 * The package's array: a JSON module import, else (attributes stripped by a bundler) Node's
 * `require`, reached through `process.getBuiltinModule` (Node ≥ 20.16) so that this module
 * imports nothing Node-specific and the main entry stays runtime-neutral.
 */
async function readList(): Promise<unknown> {
  try {
    const module = (await import('disposable-domains/index.json', { with: { type: 'json' } })) as {
      default: unknown;
    };
    return module.default;
  } catch (error) {
    const node = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
    const builtin = node?.getBuiltinModule?.('node:module') as NodeModuleBuiltin | undefined;
    if (!builtin) throw error;
    return builtin.createRequire(import.meta.url)('disposable-domains/index.json');
  }
}

async function load(): Promise<DisposableLookup> {
  const list = await readList();
  if (!Array.isArray(list)) throw new Error('disposable-domains: index.json is not an array');
  const set = new Set<string>();
  for (const entry of list) {
    if (typeof entry === 'string') set.add(entry.trim().toLowerCase().replace(/\.$/, ''));
  }
  return (domain: string): boolean => set.has(domain.toLowerCase());
}

/**
 * Loads the list once per process (the first call imports and indexes it, later calls share the
 * same promise) and returns an exact-match `has` function over lower-cased domains, meant for
 * core's `isDisposableDomain(domain, has)`, which also asks for every parent domain, so a
 * subdomain of a listed domain counts as disposable.
 *
 * A failed load is not cached: the next call tries again.
 */
export function loadDisposableDomains(): Promise<DisposableLookup> {
  if (loading === undefined) {
    loading = load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}
