/** Running a ledger script: its load is shared by the calls made meanwhile, and tried again after a failure. */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { Script } from './ledger-scripts.ts';

describe('Script', () => {
  it('tries the load again on the next call when it failed (Redis away), and runs by SHA once loaded', async () => {
    const calls: string[] = [];
    let loads = 0;
    const client = {
      script: async () => {
        calls.push('load');
        if (++loads === 1) throw new Error('connect ECONNREFUSED');
        return 'sha1';
      },
      evalsha: async (sha: string) => {
        calls.push(`evalsha ${sha}`);
        return 1;
      },
    } as unknown as Redis;
    const script = new Script(client, 'return 1');
    await expect(script.run([], [])).rejects.toThrow('ECONNREFUSED');
    expect(await script.run([], [])).toBe(1);
    expect(await script.run([], [])).toBe(1);
    expect(calls).toEqual(['load', 'load', 'evalsha sha1', 'evalsha sha1']);
  });
});
