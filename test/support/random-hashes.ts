/** Random hashes and photos for the duplicate index's property tests (fast-check arbitraries). */
import fc from 'fast-check';
import { HASHES_PER_PHOTO } from '../../src/shared/duplicates/hash-set';
import type { PackedPhotos } from '../../src/shared/jobs/outputs/duplicate-scan';

const WORDS = 2 * HASHES_PER_PHOTO;
const word = fc.integer({ min: 0, max: 0xffffffff });

/** Random hashes, many of them a few bits away from an earlier one (near neighbours are what matters). */
export const hashes = (max: number) =>
  fc
    .array(fc.record({ hi: word, lo: word, near: fc.nat(), flips: fc.array(fc.nat({ max: 63 }), { maxLength: 12 }) }), {
      minLength: 1,
      maxLength: max,
    })
    .map((rows) => {
      const hi = new Uint32Array(rows.length);
      const lo = new Uint32Array(rows.length);
      rows.forEach((r, i) => {
        let [h, l] = i > 0 && r.near % 3 !== 0 ? [hi[r.near % i], lo[r.near % i]] : [r.hi, r.lo];
        for (const bit of r.flips) {
          if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
          else l = (l ^ (1 << (bit - 32))) >>> 0;
        }
        hi[i] = h;
        lo[i] = l;
      });
      return { hi, lo };
    });

/** Photos whose seven hashes are random, or copies of an earlier photo's with a few bits flipped in each. */
export const photos = (max: number, firstId: number) =>
  fc
    .array(
      fc.tuple(
        hashes(HASHES_PER_PHOTO).filter((h) => h.hi.length === HASHES_PER_PHOTO),
        fc.nat(),
        fc.nat({ max: 4 }),
      ),
      {
        maxLength: max,
      },
    )
    .map((rows): PackedPhotos => {
      const words = new Uint32Array(rows.length * WORDS);
      rows.forEach(([h, near, flips], p) => {
        const from = p > 0 && near % 2 === 0 ? near % p : -1;
        for (let k = 0; k < HASHES_PER_PHOTO; k++) {
          const [hi, lo] = from >= 0 ? [words[from * WORDS + 2 * k], words[from * WORDS + 2 * k + 1]] : [h.hi[k], h.lo[k]];
          // Flip `flips` low bits of each hash of a copy (its kinds drift together, as a real copy's do).
          words[p * WORDS + 2 * k] = hi;
          words[p * WORDS + 2 * k + 1] = from >= 0 ? (lo ^ ((1 << flips) - 1)) >>> 0 : lo;
        }
      });
      return { ids: Int32Array.from(rows, (_, i) => firstId + i), words };
    });
