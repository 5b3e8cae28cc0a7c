/** What Redis reports about its own work, for the benchmarks (INFO, read only: nothing is reset). */
import type { Redis } from 'ioredis';

/** Redis's own CPU time (s), and its command statistics: command → [calls, µs inside it]. */
export async function redisStats(
  client: Redis,
): Promise<{ cpu: number; commands: Map<string, [number, number]> }> {
  const info = await client.info('all');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  const commands = new Map<string, [number, number]>();
  for (const match of info.matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm))
    commands.set(match[1]!, [Number(match[2]), Number(match[3])]);
  return { cpu: field('used_cpu_user') + field('used_cpu_sys'), commands };
}
