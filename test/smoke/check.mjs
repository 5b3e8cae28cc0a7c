// Shared assertions of the runtime smoke tests: the built package answers real HTTP requests,
// and a key created through the admin API spends a credit on a transcript, and one on an MCP
// tool call.
export const ADMIN_TOKEN = 'smoke-admin-token-0123456789abcdef';
export const FIXTURES = new URL('../../fixtures/demo', import.meta.url).pathname;

/** A new key on the paid plan with `credits`, made through the admin API; throws when not made. */
export async function createKey(url, credits) {
  const created = await fetch(`${url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits, plan: 'paid' }),
  });
  const key = await created.json();
  if (created.status !== 201 || !key.api_key?.startsWith('tsk_'))
    throw new Error(`POST /admin/keys answered ${created.status}`);
  return key;
}

/** Whether two byte arrays hold the same bytes. */
export const sameBytes = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);

export async function check(url, runtime) {
  const fail = (what) => {
    throw new Error(`[${runtime}] ${what}`);
  };
  const health = await fetch(`${url}/healthz`);
  const body = await health.json();
  if (health.status !== 200 || body.status !== 'ok')
    fail(`/healthz answered ${health.status} ${JSON.stringify(body)}`);

  const missing = await fetch(`${url}/no/such/route`);
  const envelope = await missing.json();
  if (
    missing.status !== 404 ||
    envelope?.error?.code !== 'not_found' ||
    typeof envelope.error.retryable !== 'boolean'
  ) {
    fail(`unknown route answered ${missing.status} ${JSON.stringify(envelope)}`);
  }

  const newKey = (credits) => createKey(url, credits).catch((error) => fail(error.message));
  const key = await newKey(3);

  const transcript = await fetch(`${url}/v1/transcripts?video_id=rCAS2eD-mcw&format=text`, {
    headers: { 'x-api-key': key.api_key },
  });
  const text = await transcript.text();
  if (
    transcript.status !== 200 ||
    text.trim() === '' ||
    transcript.headers.get('x-credits-to-deduct') !== '1'
  ) {
    fail(`GET /v1/transcripts answered ${transcript.status} ${text.slice(0, 200)}`);
  }
  const account = await (
    await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key.api_key}` } })
  ).json();
  if (account.credits !== 2) fail(`credits after one transcript: ${account.credits}, expected 2`);

  // One MCP tool call (the 2026-07-28 per-request form: no initialize needed), charged like REST.
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'smoke', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const mcp = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key.api_key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_transcript',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_transcript', arguments: { video: 'rCAS2eD-mcw' }, _meta: meta },
    }),
  });
  const reply = await mcp.text();
  let result;
  try {
    result = JSON.parse(reply).result;
  } catch {}
  if (mcp.status !== 200 || result?.isError || result?.structuredContent?.video_id !== 'rCAS2eD-mcw') {
    fail(`POST /mcp tools/call answered ${mcp.status} ${reply.slice(0, 200)}`);
  }
  const after = await (
    await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key.api_key}` } })
  ).json();
  if (after.credits !== 1) fail(`credits after an MCP transcript: ${after.credits}, expected 1`);

  // The typed client (tubescribe/client) from the built files, on this runtime's own fetch.
  const { createClient } = await import('../../dist/client.js');
  const api = createClient({ baseUrl: url, apiKey: key.api_key });
  const { data, response } = await api.GET('/v1/account');
  if (response.status !== 200 || data?.credits !== 1) {
    fail(`the typed client's GET /v1/account answered ${response.status} ${JSON.stringify(data)}`);
  }
  // A repeat is answered from the kept rendering (a Blob on Bun): the same bytes as the first.
  const second = await newKey(2);
  const path = `${url}/v1/transcripts?video_id=rCAS2eD-mcw&format=json3&word_level=true&track_policy=asr_only`;
  const answers = [];
  for (let i = 0; i < 2; i++) {
    const res = await fetch(path, { headers: { 'x-api-key': second.api_key } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200 || bytes.length < 1000)
      fail(`GET json3 answered ${res.status}, ${bytes.length} bytes`);
    if (Number(res.headers.get('content-length')) !== bytes.length)
      fail(`GET json3: Content-Length ${res.headers.get('content-length')} for ${bytes.length} bytes`);
    answers.push({ bytes, cache: res.headers.get('x-cache') });
  }
  if (answers[1].cache !== 'HIT' || !sameBytes(answers[1].bytes, answers[0].bytes))
    fail('a cached json3 transcript did not answer the bytes of the first answer');
  console.log(
    `smoke ${runtime}: ok (${url}): key created, 1 credit spent on a transcript, 1 on an MCP call, the typed client read the account, a cached transcript answered the same ${answers[0].bytes.length} bytes`,
  );
}

/** App options for the smoke servers: in-memory storage, the demo fixtures, an admin token. */
export function appOptions(createFixturesUpstream) {
  return { adminToken: ADMIN_TOKEN, upstream: createFixturesUpstream(FIXTURES), logger: { log() {} } };
}
