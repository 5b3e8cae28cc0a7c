/**
 * The part of vitest's API that the shared contract suites use (`describe`, `it`, `beforeEach`,
 * `afterEach`, `expect`, `ctx.skip()`), on `Deno.test`, so a suite written for vitest runs
 * unchanged under `deno test`: test/deno/deno.json maps the import `vitest` to this file, and
 * every other bare import resolves from node_modules (`npm ci` first), as under Node.
 *
 * - Every `it` becomes one `Deno.test` named by its describe chain (`outer > inner > test`).
 * - `beforeEach` hooks run outer to inner before each test, `afterEach` hooks inner to outer
 *   after it, even when the test failed (the first error wins), as in vitest.
 * - `expect` is vitest's own (`@vitest/expect`'s matchers on chai), so every assertion means
 *   exactly what it means under vitest.
 * - `ctx.skip()` ends a test early; Deno reports it as passed, this file counts it as skipped.
 * - {@link testsRun} lists the tests that ran, so a test file can fail when none did.
 * @module
 */
import { chai, type ExpectStatic, JestAsymmetricMatchers, JestChaiExpect, JestExtend } from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

/** vitest's `expect`. */
export const expect: ExpectStatic = chai.expect as unknown as ExpectStatic;

type Hook = () => unknown;
/** The context vitest passes to a test; only `skip` is provided. */
export interface TestContext {
  skip(note?: string): never;
}
type TestBody = (ctx: TestContext) => unknown;
interface Suite {
  readonly name: string;
  readonly parent: Suite | undefined;
  readonly before: Hook[];
  readonly after: Hook[];
}
interface DenoTest {
  test(definition: { name: string; fn: () => Promise<void> }): void;
}

const deno: DenoTest =
  (globalThis as unknown as { Deno?: DenoTest }).Deno ??
  (() => {
    throw new Error('test/deno/vitest-shim.ts runs under `deno test` only.');
  })();

class Skipped extends Error {}

let current: Suite = { name: '', parent: undefined, before: [], after: [] };
const finished: { name: string; skipped: boolean }[] = [];

/** The full names of the tests that have finished (passed or skipped) so far. */
export function testsRun(): readonly { name: string; skipped: boolean }[] {
  return [...finished];
}

/** Groups tests; `body` runs at once and registers them. */
export function describe(name: string, body: () => void): void {
  const outer = current;
  current = { name, parent: outer, before: [], after: [] };
  try {
    body();
  } finally {
    current = outer;
  }
}

/** Runs `fn` before each test of the enclosing describe (and of the describes inside it). */
export function beforeEach(fn: Hook): void {
  current.before.push(fn);
}

/** Runs `fn` after each test of the enclosing describe (and of the describes inside it). */
export function afterEach(fn: Hook): void {
  current.after.push(fn);
}

/** Registers one test as a `Deno.test`. */
export function it(name: string, body: TestBody): void {
  const chain: Suite[] = [];
  for (let s: Suite | undefined = current; s; s = s.parent) chain.unshift(s);
  const fullName = [...chain.map((s) => s.name).filter(Boolean), name].join(' > ');
  const ctx: TestContext = {
    skip(note?: string): never {
      throw new Skipped(note ?? 'skipped');
    },
  };
  deno.test({
    name: fullName,
    async fn() {
      const errors: unknown[] = [];
      let skipped = false;
      try {
        for (const suite of chain) for (const hook of suite.before) await hook();
        await body(ctx);
      } catch (error) {
        if (error instanceof Skipped) skipped = true;
        else errors.push(error);
      }
      for (const suite of [...chain].reverse()) {
        for (const hook of [...suite.after].reverse()) {
          try {
            await hook();
          } catch (error) {
            errors.push(error);
          }
        }
      }
      if (errors.length > 0) throw errors[0];
      finished.push({ name: fullName, skipped });
      if (skipped) console.log(`  (skipped: ${fullName})`);
    },
  });
}

/** vitest's alias of {@link it}. */
export const test: typeof it = it;
