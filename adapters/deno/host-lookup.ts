/**
 * The host lookup of Deno for the webhook address check: `Deno.resolveDns` for the A and AAAA
 * records of a name, asked in parallel. Deno has no getaddrinfo binding, so `/etc/hosts` is not
 * consulted here; the check sees what DNS answers.
 * @module
 */
import type { HostLookup } from '../../src/services/webhooks.ts';

/** What is used of the `Deno` global (typed here so no Deno types are needed). */
interface DenoDns {
  resolveDns?(query: string, recordType: 'A' | 'AAAA'): Promise<string[]>;
}

/**
 * Every A and AAAA address of `hostname`. Either family suffices; it rejects only when neither
 * lookup answers (the first error), or with an error when not running under Deno.
 */
export const denoHostLookup: HostLookup = async (hostname) => {
  const deno = (globalThis as { Deno?: DenoDns }).Deno;
  if (!deno?.resolveDns) {
    throw new Error('tubescribe/deno: Deno.resolveDns is not available; run this under Deno.');
  }
  const name = hostname.endsWith('.') ? hostname : `${hostname}.`;
  const answers = await Promise.allSettled([deno.resolveDns(name, 'A'), deno.resolveDns(name, 'AAAA')]);
  const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
  const failure = answers.find((answer) => answer.status === 'rejected');
  if (addresses.length === 0 && failure) throw failure.reason;
  return addresses;
};
