// Shared assertions of the runtime smoke tests: the built package answers real HTTP requests.
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
  console.log(`smoke ${runtime}: ok (${url})`);
}
