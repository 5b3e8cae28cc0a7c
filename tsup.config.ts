import { defineConfig, type Options } from 'tsup';

/** Build entries: name in dist → source. scripts/check-entries.mjs keeps package.json and deno.json in step. */
export const entries: Record<string, string> = {
  index: 'src/index.ts',
  node: 'adapters/node/index.ts',
  bun: 'adapters/bun/index.ts',
  deno: 'adapters/deno/index.ts',
  redis: 'src/redis.ts',
  client: 'src/client/index.ts',
  cli: 'src/cli/main.ts',
};

export default defineConfig({
  entry: entries,
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: {
    entry: {
      index: entries.index!,
      node: entries.node!,
      bun: entries.bun!,
      deno: entries.deno!,
      redis: entries.redis!,
      client: entries.client!,
    },
  },
  clean: true,
  sourcemap: false,
  splitting: true,
  treeshake: true,
}) as Options;
