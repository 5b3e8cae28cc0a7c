// Prints (or, given a path, writes) the OpenAPI document a default app serves: every route set,
// default prices, and a neutral public URL. Used by scripts/openapi-lint.sh (Spectral, Redocly)
// and scripts/check-client-types.mjs (the typed client's generated types).
// Run: node --import tsx scripts/openapi-document.ts [out.json]
import { writeFileSync } from 'node:fs';
import { createTubescribe } from '../src/app.ts';
import { silentLogger } from '../src/drivers/system.ts';

const PUBLIC_URL = 'https://tubescribe.invalid';

const ts = createTubescribe({ logger: silentLogger, publicUrl: PUBLIC_URL, routes: 'all' });
const response = await ts.app.request(`${PUBLIC_URL}/openapi.json`);
if (response.status !== 200) {
  console.error(`openapi-document: /openapi.json answered ${response.status}: ${await response.text()}`);
  process.exit(1);
}
const text = `${JSON.stringify(await response.json(), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, text);
else process.stdout.write(text);
await ts.close();
