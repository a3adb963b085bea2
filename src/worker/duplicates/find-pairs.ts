/**
 * Near-duplicate photos between two sets of photos (or within one): the pairs whose distance —
 * the smallest over the pairs of hashes that are compared (src/shared/duplicates/hash-set.ts) —
 * is at most `maxDistance`. The larger set is filed in four indexes (whole-image, content, centre
 * and corner hashes) and each photo of the smaller set searches them once per pair of kinds that
 * are compared (13 searches), so no pair of photos is looked at unless some hash of one is close
 * to a hash of the other it is compared with.
 */
import { CORNER_KINDS, HASHES_PER_PHOTO, KIND, MATCHED_BY, matchOf, type MatchedBy } from '../../shared/duplicates/hash-set';
import type { PackedPhotos } from '../../shared/jobs/outputs/duplicate-scan';
import { HashIndex } from './hash-index';

export type { PackedPhotos };

export interface FoundPair {
  a: number;
  b: number;
  distance: number;
  by: MatchedBy;
}

export interface FindOptions {
  maxDistance: number;
  /** Keep at most this many nearest matches per photo of the smaller set (a library of blank-ish scans must not explode). */
  maxPerPhoto: number;
  /** Checked every few hundred photos. */
  signal?: AbortSignal;
  /** 0..1 as the photos of the smaller set are done. */
  progress?(fraction: number): void;
}

const WORDS = 2 * HASHES_PER_PHOTO;

/** A family: which kinds of the indexed set it files. */
class Family {
  readonly index: HashIndex;
  /** Entries per photo (a photo's entries are consecutive). */
  readonly perPhoto: number;
  /** Per entry: the photo (its position in the set) and the kind. */
  readonly photo: Uint32Array;
  readonly kind: Uint8Array;

  constructor(set: PackedPhotos, kinds: readonly number[]) {
    this.perPhoto = kinds.length;
    const n = set.ids.length * kinds.length;
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    this.photo = new Uint32Array(n);
    this.kind = new Uint8Array(n);
    let e = 0;
    for (let p = 0; p < set.ids.length; p++) {
      for (const k of kinds) {
        hi[e] = set.words[p * WORDS + 2 * k];
        lo[e] = set.words[p * WORDS + 2 * k + 1];
        this.photo[e] = p;
        this.kind[e++] = k;
      }
    }
    this.index = new HashIndex(hi, lo, n);
  }
}

type FamilyName = 'full' | 'content' | 'centre' | 'corner';

/** The families a photo's kinds search: one search per pair of kinds that are compared, and no other. */
const SEARCHES: { kind: number; family: FamilyName }[] = [
  { kind: KIND.full, family: 'full' },
  { kind: KIND.content, family: 'content' },
  { kind: KIND.content, family: 'centre' },
  { kind: KIND.content, family: 'corner' },
  { kind: KIND.centre, family: 'content' },
  { kind: KIND.centre, family: 'centre' },
  ...CORNER_KINDS.map((kind) => ({ kind, family: 'content' as const })),
];

/** A set of photos filed in the four families, searched photo by photo. */
export class PhotoIndex {
  /** SEARCHES with their families. */
  private readonly searches: { kind: number; family: Family }[];
  private readonly best: Int32Array;
  private readonly how: Uint8Array;
  private readonly touched: number[] = [];

  constructor(readonly set: PackedPhotos) {
    const families: Record<FamilyName, Family> = {
      full: new Family(set, [KIND.full]),
      content: new Family(set, [KIND.content]),
      centre: new Family(set, [KIND.centre]),
      corner: new Family(set, CORNER_KINDS),
    };
    this.searches = SEARCHES.map(({ kind, family }) => ({ kind, family: families[family] }));
    this.best = new Int32Array(set.ids.length).fill(-1);
    this.how = new Uint8Array(set.ids.length);
  }

  /**
   * The photos of the set (by position) within `maxDistance` of a photo whose hashes are
   * `words[at…]` and whose id is `id` (not matched with itself), nearest first, at most
   * `maxPerPhoto`; `accept` may leave some out (by position), and the photos from position `below`
   * on are never looked at (a caller that would not accept them says so, and saves their comparisons).
   */
  near(
    words: Uint32Array,
    at: number,
    id: number,
    maxDistance: number,
    maxPerPhoto: number,
    accept: (other: number) => boolean = () => true,
    below = this.set.ids.length,
  ): { other: number; distance: number; by: MatchedBy }[] {
    const { best, how, touched } = this;
    const ids = this.set.ids;
    for (const { kind, family } of this.searches) {
      family.index.within(
        words[at + 2 * kind],
        words[at + 2 * kind + 1],
        maxDistance,
        (entry, distance) => {
          const match = matchOf(kind, family.kind[entry]);
          const other = family.photo[entry];
          if (!match || ids[other] === id) return;
          const rank = MATCHED_BY.indexOf(match);
          if (best[other] < 0) {
            if (!accept(other)) return;
            touched.push(other);
          } else if (distance > best[other] || (distance === best[other] && rank >= how[other])) return;
          best[other] = distance;
          how[other] = rank;
        },
        below * family.perPhoto,
      );
    }
    touched.sort((x, y) => best[x] - best[y] || ids[x] - ids[y]);
    const out = touched.slice(0, maxPerPhoto).map((other) => ({ other, distance: best[other], by: MATCHED_BY[how[other]] }));
    for (const other of touched) best[other] = -1;
    touched.length = 0;
    return out;
  }
}

/**
 * Pairs between `query` and `refs` (each id pair once, `a` < `b`); with `refs` null, pairs within
 * `query`. The sets are expected not to share photos (a shared id is not paired with itself).
 */
export function findPairs(query: PackedPhotos, refs: PackedPhotos | null, opts: FindOptions): FoundPair[] {
  const self = refs === null;
  let indexed = refs ?? query;
  let searching = query;
  // File the larger set, search with the smaller: a search costs about as much as filing a photo,
  // and finding pairs costs the same either way.
  if (!self && indexed.ids.length < searching.ids.length) [indexed, searching] = [searching, indexed];
  if (!indexed.ids.length || !searching.ids.length) return [];
  const index = new PhotoIndex(indexed);
  // Within one set each pair would be found from both ends: keep it from the larger id's end. When
  // the ids ascend, the photos after the searching one are all larger, and are not looked at.
  const ascending = self && indexed.ids.every((id, p) => p === 0 || indexed.ids[p - 1] < id);
  const pairs: FoundPair[] = [];
  for (let p = 0; p < searching.ids.length; p++) {
    if ((p & 255) === 0) {
      opts.signal?.throwIfAborted();
      opts.progress?.(p / searching.ids.length);
    }
    const id = searching.ids[p];
    const accept = self ? (other: number) => indexed.ids[other] < id : undefined;
    const below = ascending ? p : undefined;
    for (const m of index.near(searching.words, p * WORDS, id, opts.maxDistance, opts.maxPerPhoto, accept, below)) {
      const otherId = indexed.ids[m.other];
      pairs.push({ a: Math.min(id, otherId), b: Math.max(id, otherId), distance: m.distance, by: m.by });
    }
  }
  opts.progress?.(1);
  return pairs;
}
