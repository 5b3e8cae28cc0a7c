import { defineConfig, type ViteUserConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'adapters/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', 'test/deno/**', 'test/bun/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary', 'text'],
    },
  },
}) as ViteUserConfig;
