import { describe, expect, it } from 'vitest';
import { buildVerifyResponse } from './signup-response.ts';
import { resolveSignupSettings } from './signup-settings.ts';

describe('buildVerifyResponse', () => {
  it('builds the contract body', () => {
    const body = buildVerifyResponse({
      apiKey: 'tsk_KEY',
      credits: 200,
      baseUrl: 'https://api.example.com/',
    });
    expect(body).toEqual({
      status: 'account_created',
      api_key: 'tsk_KEY',
      credits: 200,
      limits: { requests_per_second: 1, requests_per_day: 100 },
      next: expect.stringContaining('https://api.example.com/v1/'),
      example_request:
        'curl -H "Authorization: Bearer tsk_KEY" "https://api.example.com/v1/transcripts?video_id=rCAS2eD-mcw"',
      docs: 'https://api.example.com/docs',
      notes: expect.stringContaining('200 free credits'),
    });
    expect(body.notes).toMatch(/100 requests per UTC day/);
  });

  it('says so when no free credits were granted, and follows the settings', () => {
    const settings = resolveSignupSettings({
      requestsPerSecond: 2,
      requestsPerDay: 50,
      exampleVideoId: 'dQw4w9WgXcQ',
    });
    const body = buildVerifyResponse({ apiKey: 'k', credits: 0, baseUrl: 'http://127.0.0.1:8787' }, settings);
    expect(body.limits).toEqual({ requests_per_second: 2, requests_per_day: 50 });
    expect(body.notes).toMatch(/No free credits/);
    expect(body.example_request).toContain('http://127.0.0.1:8787/v1/transcripts?video_id=dQw4w9WgXcQ');
  });
});
