// Deno: the YouTube driver (TypeScript sources, run directly; bare imports through deno.json) behind
// two proxies in front of a fake origin on 127.0.0.1, reached through the Deno adapter's proxyFetch:
// Deno.createHttpClient({ proxy }) sends absolute-form requests. Exits non-zero on failure.
// Run: npx -y deno@2.9.6 run -A test/smoke/proxy-deno.mjs
import { proxyFetch } from '../../adapters/deno/proxy-fetch.ts';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { checkDriverThroughProxies } from './proxy-servers.mjs';

const runtime = `deno ${Deno.version.deno}`;
try {
  const result = await checkDriverThroughProxies(createYouTubeUpstream, proxyFetch, runtime);
  console.log(`proxy smoke ${runtime}: ok (${result.summary})`);
} catch (error) {
  console.error(error);
  Deno.exit(1);
}
