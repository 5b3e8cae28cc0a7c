// Bun: the YouTube driver (TypeScript sources, run directly) behind two proxies in front of a fake
// origin on 127.0.0.1, reached through the Bun adapter's proxyFetch: Bun's fetch({ proxy }) sends
// absolute-form requests. Exits non-zero on failure.
// Run: npx -y bun@1.4.5 test/smoke/proxy-bun.mjs
import { proxyFetch } from '../../adapters/bun/proxy-fetch.ts';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { checkDriverThroughProxies } from './proxy-servers.mjs';

const runtime = `bun ${Bun.version}`;
try {
  const result = await checkDriverThroughProxies(createYouTubeUpstream, proxyFetch, runtime);
  console.log(`proxy smoke ${runtime}: ok (${result.summary})`);
} catch (error) {
  console.error(error);
  process.exit(1);
}
