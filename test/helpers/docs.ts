/**
 * Shared by the docs tests: test apps closed after the file, the OpenAPI document's shape they
 * read, and the configuration the docs page hands to its init script.
 */
import { afterAll } from 'vitest';
import { type TestApp, type TestAppOptions, testApp } from './app.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const made of apps.splice(0)) await made.ts.close();
});

/** A test app, closed after the test file. */
export async function docsApp(options: TestAppOptions = {}): Promise<TestApp> {
  const made = await testApp(options);
  apps.push(made);
  return made;
}

/** The parts of the OpenAPI document the docs tests read. */
export type Doc = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/** The `servers` of a `/openapi.json` answer. */
export const serversOf = async (res: Response): Promise<Doc['servers']> =>
  ((await res.json()) as Doc).servers;

/** The configuration the page hands to its init script. */
export function pageConfig(html: string): {
  url: string;
  sameOriginServer: boolean;
  scalar: Record<string, unknown>;
} {
  const json = /<script type="application\/json" id="[^"]+">(.*?)<\/script>/s.exec(html)?.[1];
  if (json === undefined) throw new Error('no configuration element in the page');
  return JSON.parse(json);
}
