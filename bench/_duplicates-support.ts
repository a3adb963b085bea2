/**
 * What the duplicate benchmark's parts share (bench/duplicates.ts, _duplicates-job.ts): the
 * photo-like hashes it searches (see duplicates.ts's header) and its medians with ranges.
 */
import { HASHES_PER_PHOTO } from '../src/shared/duplicates/hash-set';
import { round } from './_util';
import { rng } from '../test/support/duplicates';

export const WORDS = 2 * HASHES_PER_PHOTO;
/** The scan's default distance. */
export const D = 6;

/** Photo-like hash sets (see the header). */
export function makeHashes(n: number, seed: number): Uint32Array {
  const next = rng(seed);
  const noise = () => {
    let m = 0;
    for (let b = 0; b < 32; b++) if (next() < 0.1 * 2 ** 32) m |= 1 << b;
    return m >>> 0;
  };
  const w = new Uint32Array(n * WORDS);
  for (let i = 0; i < n; i++) {
    const o = i * WORDS;
    if (i % 50 === 49) {
      for (let k = 0; k < WORDS; k++) w[o + k] = (w[o - WORDS + k] ^ (k % 2 ? 1 << (next() % 32) : 0)) >>> 0;
      continue;
    }
    w[o] = (next() | 0x80000000) >>> 0;
    w[o + 1] = next();
    const bordered = next() % 5 === 0;
    w[o + 2] = bordered ? (next() | 0x80000000) >>> 0 : w[o];
    w[o + 3] = bordered ? next() : w[o + 1];
    for (let k = 2; k < HASHES_PER_PHOTO; k++) {
      w[o + 2 * k] = (w[o + 2] ^ noise()) >>> 0;
      w[o + 2 * k + 1] = (w[o + 3] ^ noise()) >>> 0;
    }
  }
  return w;
}

export interface Stat {
  median: number;
  min: number;
  max: number;
}
export const stat = (xs: number[]): Stat => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: round(s[Math.floor(s.length / 2)], 1), min: round(s[0], 1), max: round(s[s.length - 1], 1) };
};
export const show = (s: Stat, unit = 'ms') => `${s.median} ${unit} (${s.min}–${s.max})`;
export const timed = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
};
