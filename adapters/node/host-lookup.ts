/**
 * The host lookup of Node for the webhook address check: `dns.promises.lookup` with `all: true`,
 * the system resolver (getaddrinfo, `/etc/hosts` included) that Node's `fetch` itself connects
 * through, so the addresses checked are the ones a connection would use at that moment.
 * @module
 */
import { lookup } from 'node:dns/promises';
import type { HostLookup } from '../../src/services/webhooks.ts';

/**
 * Every IPv4 and IPv6 address `hostname` resolves to, in the resolver's order (`verbatim`).
 * Rejects when the name does not resolve (`ENOTFOUND`, …), which the webhook check refuses.
 */
export const nodeHostLookup: HostLookup = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};
