/**
 * Each runtime adapter reads the client address from what its runtime passes with a request.
 */
import { describe, expect, it } from 'vitest';
import { bunClientAddress } from '../../adapters/bun/client-address.ts';
import { denoClientAddress } from '../../adapters/deno/client-address.ts';
import { nodeClientAddress } from '../../adapters/node/client-address.ts';

const request = new Request('http://local/');

describe('client addresses from the runtime environment (Node, Bun, Deno)', () => {
  it('reads each runtime’s shape', () => {
    expect(nodeClientAddress(request, { incoming: { socket: { remoteAddress: '10.0.0.5' } } })).toBe(
      '10.0.0.5',
    );
    expect(bunClientAddress(request, { requestIP: () => ({ address: '198.51.100.2' }) })).toBe(
      '198.51.100.2',
    );
    expect(denoClientAddress(request, { remoteAddr: { hostname: '2001:db8::1' } })).toBe('2001:db8::1');
  });

  it('answers undefined for an environment of another kind', () => {
    for (const env of [undefined, {}, { requestIP: () => null }]) {
      expect(nodeClientAddress(request, env)).toBeUndefined();
      expect(bunClientAddress(request, env)).toBeUndefined();
      expect(denoClientAddress(request, env)).toBeUndefined();
    }
    expect(
      bunClientAddress(request, {
        requestIP: () => {
          throw new Error('not a Bun server');
        },
      }),
    ).toBeUndefined();
  });
});
