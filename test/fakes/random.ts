import type { Random } from '../../src/ports/random.ts';

/** A deterministic Random (xorshift32) for tests. Not for production. */
export class SeededRandom implements Random {
  private state: number;
  constructor(seed = 0x9e3779b9) {
    this.state = seed >>> 0 || 1;
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      let x = this.state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.state = x >>> 0;
      out[i] = this.state & 0xff;
    }
    return out;
  }
}
