// Bun: the YouTube driver (TypeScript sources, run directly) behind two proxies in front of a fake
// origin on 127.0.0.1. Bun's fetch({ proxy }) sends absolute-form requests. Exits non-zero on failure.
// Run: npx bun test/smoke/proxy-bun.mjs
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { checkDriverThroughProxies } from './proxy-servers.mjs';

const runtime = `bun ${Bun.version}`;
try {
  const result = await checkDriverThroughProxies(createYouTubeUpstream, runtime);
  console.log(`proxy smoke ${runtime}: ok (${result.summary})`);
} catch (error) {
  console.error(error);
  process.exit(1);
}
