/**
 * A small seeded PRNG (mulberry32) and the picks the fuzz generator needs. Seeded per request
 * (seed, index), so one failing request can be regenerated alone from the two numbers printed.
 */
export interface Rng {
  next(): number;
  int(max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function rng(seed: number, index = 0): Rng {
  let state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
  };
}
