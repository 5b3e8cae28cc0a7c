// Shared assertions of the runtime smoke tests: the built package answers real HTTP requests,
// and a key created through the admin API spends a credit on a transcript.
export const ADMIN_TOKEN = 'smoke-admin-token-0123456789abcdef';
export const FIXTURES = new URL('../../fixtures/demo', import.meta.url).pathname;

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

  const created = await fetch(`${url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 3, plan: 'paid' }),
  });
  const key = await created.json();
  if (created.status !== 201 || !key.api_key?.startsWith('tsk_'))
    fail(`POST /admin/keys answered ${created.status}`);

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
  console.log(`smoke ${runtime}: ok (${url}): key created, 1 credit spent on a transcript`);
}

/** App options for the smoke servers: in-memory storage, the demo fixtures, an admin token. */
export function appOptions(createFixturesUpstream) {
  return { adminToken: ADMIN_TOKEN, upstream: createFixturesUpstream(FIXTURES), logger: { log() {} } };
}
