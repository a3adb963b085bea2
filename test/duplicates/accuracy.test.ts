/**
 * How well the duplicate hashes find the same photograph, on copies generated from every distinct
 * photo of the shared corpus (test/support/duplicate-variants.ts): recall per transformation, and
 * false pairs among copies of different photographs. The pairs come from the scan's own index
 * (findPairs) at the default distance, with hashes computed as the metadata job computes them.
 * The table is printed; the floors below are the measured figures less a little, so a change
 * that loses accuracy fails here.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { DEFAULT_MAX_DISTANCE, HASHES_PER_PHOTO, hashesFromHex } from '../../src/shared/duplicates/hash-set';
import { findPairs } from '../../src/worker/duplicates/find-pairs';
import { computePhotoHashes } from '../../src/worker/imaging/photo-hashes';
import {
  CORPUS,
  TRANSFORMS,
  TRANSFORM_NAMES,
  corpusSources,
  makeVariants,
  type TransformName,
} from '../support/duplicate-variants';

interface Copy {
  source: number;
  transform: TransformName;
  words: Uint32Array | null;
}

/** Least recall accepted per transformation (of the copies both hashable). */
const FLOORS: Record<Exclude<TransformName, 'original'>, number> = {
  // Must be found. One brightened copy is missed: a 100 × 72 px photo of bright water that clips.
  resize: 1,
  reencode: 1,
  greyscale: 1,
  brightened: 0.98,
  // Found through the hashes inside the border and of the crops.
  border: 0.95,
  crop5: 0.95,
  crop5side: 0.9,
  // Reported; a slightly skewed scan is often found, a 2° one less often.
  rotate1: 0.85,
  rotate2: 0.65,
};

describe('duplicate accuracy on copies of the corpus', () => {
  it('finds resized, re-encoded, greyscale and brightened copies, borders and crops, with no false pairs', async () => {
    const sources = corpusSources();
    const copies: Copy[] = [];
    for (const [source, file] of sources.entries()) {
      const made = await makeVariants(file);
      for (const transform of TRANSFORM_NAMES) {
        const h = await computePhotoHashes(made[transform]);
        let words: Uint32Array | null = null;
        if (h.hashes) hashesFromHex(h.hashes, (words = new Uint32Array(2 * HASHES_PER_PHOTO)));
        copies.push({ source, transform, words });
      }
    }
    const hashable = copies.map((c, i) => ({ ...c, id: i + 1 })).filter((c) => c.words);
    const words = new Uint32Array(hashable.length * 2 * HASHES_PER_PHOTO);
    hashable.forEach((c, i) => words.set(c.words!, i * 2 * HASHES_PER_PHOTO));
    const pairs = findPairs({ ids: Int32Array.from(hashable, (c) => c.id), words }, null, {
      maxDistance: DEFAULT_MAX_DISTANCE,
      maxPerPhoto: 1000,
    });
    const byId = new Map(hashable.map((c) => [c.id, c]));
    const found = new Set(pairs.map((p) => `${p.a}-${p.b}`));
    const idOf = (source: number, t: TransformName) => source * TRANSFORM_NAMES.length + TRANSFORM_NAMES.indexOf(t) + 1;

    // Groups as the Duplicates screen shows them (connected by pairs).
    const parent = new Map<number, number>();
    const root = (x: number): number => ((parent.get(x) ?? x) === x ? x : root(parent.get(x)!));
    for (const p of pairs) parent.set(root(p.b), root(p.a));

    const rows: string[] = [];
    const recall: Record<string, number> = {};
    for (const t of TRANSFORM_NAMES.filter((n): n is Exclude<TransformName, 'original'> => n !== 'original')) {
      let comparable = 0;
      let paired = 0;
      let grouped = 0;
      for (let s = 0; s < sources.length; s++) {
        const [o, c] = [idOf(s, 'original'), idOf(s, t)];
        if (!byId.has(o) || !byId.has(c)) continue;
        comparable++;
        if (found.has(`${Math.min(o, c)}-${Math.max(o, c)}`)) paired++;
        if (root(o) === root(c)) grouped++;
      }
      recall[t] = paired / comparable;
      rows.push(
        `| ${TRANSFORMS[t].label.padEnd(24)} | ${String(paired).padStart(5)} | ${String(comparable).padStart(10)} | ${pct(paired / comparable).padStart(6)} | ${pct(grouped / comparable).padStart(8)} |`,
      );
    }
    const falsePairs = pairs.filter((p) => byId.get(p.a)!.source !== byId.get(p.b)!.source);
    let crossPairs = 0;
    for (let i = 0; i < hashable.length; i++)
      for (let j = i + 1; j < hashable.length; j++) if (hashable[i].source !== hashable[j].source) crossPairs++;
    const originals = hashable.filter((c) => c.transform === 'original');
    const falseAmongOriginals = falsePairs.filter(
      (p) => byId.get(p.a)!.transform === 'original' && byId.get(p.b)!.transform === 'original',
    );
    const uniform = copies.filter((c) => !c.words).map((c) => `${path.relative(CORPUS, sources[c.source])} (${c.transform})`);

    console.log(
      [
        `Duplicate accuracy: ${sources.length} distinct photos of the corpus, ${copies.length} copies, distance ≤ ${DEFAULT_MAX_DISTANCE}`,
        '| transformation           | found | comparable | recall | in group |',
        '| ------------------------ | ----: | ---------: | -----: | -------: |',
        ...rows,
        `False pairs: ${falsePairs.length} of ${crossPairs.toLocaleString('en-US')} pairs of copies of different photographs` +
          ` (${((100 * falsePairs.length) / crossPairs).toFixed(4)} %); among the ${originals.length} originals: ` +
          `${falseAmongOriginals.length} of ${((originals.length * (originals.length - 1)) / 2).toLocaleString('en-US')}.`,
        `Too uniform to compare (no duplicate hashes): ${uniform.join(', ') || 'none'}.`,
      ].join('\n'),
    );

    for (const [t, floor] of Object.entries(FLOORS))
      expect(recall[t], TRANSFORMS[t as TransformName].label).toBeGreaterThanOrEqual(floor);
    expect(falsePairs.map((p) => `${sources[byId.get(p.a)!.source]} ~ ${sources[byId.get(p.b)!.source]}`)).toEqual([]);
    // Only the blank-looking strip and a copy brightened into near-white have no hashes.
    expect(uniform.length).toBeLessThanOrEqual(TRANSFORM_NAMES.length + 1);
  }, 300_000);
});

function pct(x: number): string {
  return `${(100 * x).toFixed(0)} %`;
}
