/** A function that returns uniform numbers in [0, 1), the same sequence for the same seed. */
export type RandomSource = () => number;

/**
 * A seeded pseudo-random source (mulberry32): fast, 32-bit state, the same
 * sequence for the same integer seed on every platform. For splitting and
 * simulation, not for anything secret.
 *
 * @example
 * const random = createSeededRandom(42);
 * random(); // the same number on every run
 */
export function createSeededRandom(seed: number): RandomSource {
  if (!Number.isSafeInteger(seed)) throw new TypeError(`seed must be a safe integer, got ${String(seed)}`);
  // Fold the whole safe-integer range into 32 bits so that seeds differing only above bit 32 differ.
  let state = (seed % 0x1_0000_0000 ^ Math.floor(seed / 0x1_0000_0000)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

/** Shuffles `items` in place with Fisher–Yates, drawing from `random`. */
export function shuffleInPlace<T>(items: T[], random: RandomSource): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    const kept = items[index] as T;
    items[index] = items[other] as T;
    items[other] = kept;
  }
  return items;
}
