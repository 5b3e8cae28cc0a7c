/**
 * The request-body examples of the OpenAPI document, one set per route with a body, keyed
 * `method path` as the route declares it. The docs page (Scalar) and generated clients show them,
 * so they use the demo data's video (`rCAS2eD-mcw`, see `fixtures/demo`) and must be bodies the
 * route accepts: `test/http/docs.test.ts` sends each one to the app.
 * @module
 */

/** One named example of a request body (an OpenAPI Example Object). */
export interface RequestExample {
  summary: string;
  value: Record<string, unknown>;
}

const VIDEO = 'rCAS2eD-mcw';

/** The examples by `method path` (`post /v1/batch`). */
export const REQUEST_EXAMPLES: Readonly<Record<string, Readonly<Record<string, RequestExample>>>> = {
  'post /v1/transcripts': {
    segments: {
      summary: 'Timed segments, English first',
      value: { video_id: VIDEO, languages: ['en', '*'] },
    },
    text: { summary: 'Plain text', value: { video_id: VIDEO, format: 'text' } },
    translated: {
      summary: "YouTube's machine translation",
      value: { video_id: VIDEO, format: 'segments', translate_to: 'de' },
    },
  },
  'post /v1/transcripts/batch': {
    video_ids: { summary: 'Several videos, one format', value: { video_ids: [VIDEO], format: 'text' } },
    items: {
      summary: 'Per-item options',
      value: {
        items: [
          { id: 'first', video_id: VIDEO, lang: 'en', format: 'json' },
          { id: 'second', video_id: VIDEO, languages: ['fr'], format: 'srt' },
        ],
        concurrency: 2,
      },
    },
  },
  'post /v1/batch': {
    mixed: {
      summary: 'A transcript and a video record',
      value: {
        tasks: [
          { id: 'transcript', type: 'transcript', video_id: VIDEO, format: 'text', languages: ['en'] },
          { id: 'info', type: 'basic_info', video_id: VIDEO },
        ],
        concurrency: 2,
      },
    },
    webhook: {
      summary: 'With a completion webhook',
      value: {
        tasks: [{ type: 'video_info', video_id: VIDEO, mode: 'fast' }],
        webhook: { url: 'https://hooks.example.org/tubescribe' },
      },
    },
  },
  'post /admin/keys': {
    paid: {
      summary: 'A paid key with 1,000 credits',
      value: { credits: 1000, plan: 'paid', scopes: ['transcripts:read', 'data:read'] },
    },
    free: { summary: 'A free key for an email address', value: { email: 'ada@example.org' } },
  },
  'post /admin/accounts/{account_id}/credits': {
    amount: { summary: 'A number of credits', value: { amount: 500 } },
    pack: { summary: 'A credit pack', value: { pack: 'small' } },
  },
  'post /api/agent/signup': {
    email: { summary: 'Ask for a code by email', value: { email: 'ada@example.org' } },
  },
  'post /api/agent/verify': {
    code: {
      summary: "The token from the sign-up answer and the email's code",
      value: { signup_token: 'sut_4fQ2mZ8kP1xR7vT3nB6yC9wL0aE5hJ2d', code: '123456' },
    },
  },
};

/** The `examples` member of a route's JSON request body, if it has some. */
export function requestExamples(
  method: string,
  path: string,
): { examples: Readonly<Record<string, RequestExample>> } | Record<string, never> {
  const examples = REQUEST_EXAMPLES[`${method} ${path}`];
  return examples ? { examples } : {};
}
