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
import { BUCKET_COUNT, HashIndex, Hits, TABLES, quarter, type QueryBatch } from './hash-index';

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
  /** Checked every few hundred photos, or every few thousand probes of a table. */
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

  bytes(): number {
    return (
      this.index.bytes() + this.index.hi.byteLength + this.index.lo.byteLength + this.photo.byteLength + this.kind.byteLength
    );
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

/** Photos to search with: per query, where its hashes start in `words`, its id, and the position in the indexed set from which it looks no further. */
export interface Queries {
  words: Uint32Array;
  at: ArrayLike<number>;
  ids: ArrayLike<number>;
  below: ArrayLike<number>;
}

export interface Match {
  other: number;
  distance: number;
  by: MatchedBy;
}

export const BATCH = {
  /** From this many queries on, they search table by table, all at once (below it, one by one). */
  batchFrom: 512,
  /** From this many queries on, a batch probes each table in bucket order (see collectBatch). */
  sortFrom: 2_048,
  /** Matches of hashes a batch may hold before it is searched again photo by photo (a library of near-blank scans). */
  maxHits: 1 << 21,
};

/**
 * A set of photos filed in the four families. Many photos search it at once, table by table
 * (HashIndex.probeMany): the tables are far larger than a processor's caches, and a photo's
 * probes (17 buckets × 4 tables × 13 searches at d = 6) each wait on memory unless many are
 * in flight together.
 */
export class PhotoIndex {
  /** SEARCHES with their families. */
  private readonly searches: { kind: number; family: Family }[];
  private readonly best: Int32Array;
  private readonly how: Uint8Array;
  private readonly touched: number[] = [];
  private readonly hits = new Hits();
  private readonly families: Family[];

  constructor(readonly set: PackedPhotos) {
    const families: Record<FamilyName, Family> = {
      full: new Family(set, [KIND.full]),
      content: new Family(set, [KIND.content]),
      centre: new Family(set, [KIND.centre]),
      corner: new Family(set, CORNER_KINDS),
    };
    this.families = Object.values(families);
    this.searches = SEARCHES.map(({ kind, family }) => ({ kind, family: families[family] }));
    this.best = new Int32Array(set.ids.length).fill(-1);
    this.how = new Uint8Array(set.ids.length);
  }

  /** Bytes its families hold (the set it files is the caller's). */
  bytes(): number {
    return this.families.reduce((n, f) => n + f.bytes(), 0) + this.best.byteLength + this.how.byteLength;
  }

  /**
   * For each query, the photos of the set (by position) within `maxDistance` of it (not itself,
   * by id), nearest first, at most `maxPerPhoto`; `accept(query, other)` may leave some out.
   */
  search(
    qs: Queries,
    maxDistance: number,
    maxPerPhoto: number,
    accept: (query: number, other: number) => boolean = () => true,
    ctl: { signal?: AbortSignal; progress?(fraction: number): void } = {},
  ): Match[][] {
    const n = qs.ids.length;
    const out: Match[][] = [];
    const batch = n >= BATCH.batchFrom && this.searches[0].family.index.probes(maxDistance);
    if (batch && this.collectBatch(qs, maxDistance, ctl)) return this.reduce(qs, maxPerPhoto, accept);
    for (let j = 0; j < n; j++) {
      if ((j & 255) === 0) {
        ctl.signal?.throwIfAborted();
        ctl.progress?.(j / n);
      }
      this.collectOne(qs, j, maxDistance);
      out.push(this.reduce(qs, maxPerPhoto, accept, j)[0]);
    }
    return out;
  }

  /** One query's matches of hashes into `hits`, tagged query × searches + search. */
  private collectOne(qs: Queries, j: number, maxDistance: number): void {
    const { hits, searches } = this;
    hits.length = 0;
    searches.forEach(({ kind, family }, s) => {
      const at = qs.at[j] + 2 * kind;
      const tag = j * searches.length + s;
      const below = qs.below[j] * family.perPhoto;
      family.index.within(qs.words[at], qs.words[at + 1], maxDistance, (e, d) => hits.push(tag, e, d), below);
    });
  }

  /**
   * All queries' matches of hashes into `hits`, table by table; false if they grow past
   * BATCH.maxHits. From BATCH.sortFrom queries on (a full scan's chunk), they probe each table in
   * the order of their bucket there, so the table is read nearly front to back; fewer (the new
   * photos of an import) gain nothing from it and skip the sort's pass over 65,536 buckets.
   */
  private collectBatch(qs: Queries, maxDistance: number, ctl: { signal?: AbortSignal; progress?(fraction: number): void }) {
    const { hits, searches } = this;
    const n = qs.ids.length;
    hits.length = 0;
    const batch = newBatch(n);
    const sorted = n >= BATCH.sortFrom ? newBatch(n) : null;
    const counts = sorted ? new Uint32Array(BUCKET_COUNT + 1) : null;
    const { words, at } = qs;
    for (let s = 0; s < searches.length; s++) {
      const { kind, family } = searches[s];
      for (let j = 0; j < n; j++) {
        batch.hi[j] = words[at[j] + 2 * kind];
        batch.lo[j] = words[at[j] + 2 * kind + 1];
        batch.below[j] = qs.below[j] * family.perPhoto;
        batch.tag[j] = j * searches.length + s;
      }
      for (let q = 0; q < TABLES; q++) {
        ctl.signal?.throwIfAborted();
        family.index.probeMany(q, sorted && counts ? sortByBucket(batch, q, sorted, counts) : batch, maxDistance, hits);
        if (hits.length > 3 * BATCH.maxHits) return false;
      }
      ctl.progress?.((s + 1) / searches.length);
    }
    return true;
  }

  /** What `hits` found, per query (all of them, or only `only`): merged per photo, nearest first. */
  private reduce(qs: Queries, maxPerPhoto: number, accept: (query: number, other: number) => boolean, only = -1): Match[][] {
    const { best, how, touched, hits, searches } = this;
    const ids = this.set.ids;
    const S = searches.length;
    const n = only >= 0 ? 1 : qs.ids.length;
    // Hits in query order (a counting sort on the query), each query's in the order they were found.
    const starts = new Uint32Array(n + 1);
    for (let i = 0; i < hits.length; i += 3) starts[(only >= 0 ? 0 : Math.floor(hits.data[i] / S)) + 1]++;
    for (let j = 0; j < n; j++) starts[j + 1] += starts[j];
    const order = new Uint32Array(hits.length / 3);
    const next = starts.slice(0, n);
    for (let i = 0; i < hits.length; i += 3) order[next[only >= 0 ? 0 : Math.floor(hits.data[i] / S)]++] = i;
    const out: Match[][] = [];
    for (let j = 0; j < n; j++) {
      const query = only >= 0 ? only : j;
      const id = qs.ids[query];
      for (let k = starts[j]; k < starts[j + 1]; k++) {
        const i = order[k];
        const { kind, family } = searches[hits.data[i] % S];
        const entry = hits.data[i + 1];
        const distance = hits.data[i + 2];
        const match = matchOf(kind, family.kind[entry]);
        const other = family.photo[entry];
        if (!match || ids[other] === id) continue;
        const rank = MATCHED_BY.indexOf(match);
        if (best[other] < 0) {
          if (!accept(query, other)) continue;
          touched.push(other);
        } else if (distance > best[other] || (distance === best[other] && rank >= how[other])) continue;
        best[other] = distance;
        how[other] = rank;
      }
      touched.sort((x, y) => best[x] - best[y] || ids[x] - ids[y]);
      out.push(touched.slice(0, maxPerPhoto).map((other) => ({ other, distance: best[other], by: MATCHED_BY[how[other]] })));
      for (const other of touched) best[other] = -1;
      touched.length = 0;
    }
    return out;
  }
}

const newBatch = (n: number): QueryBatch => ({
  hi: new Uint32Array(n),
  lo: new Uint32Array(n),
  below: new Uint32Array(n),
  tag: new Uint32Array(n),
  n,
});

/** `from`'s queries into `to`, in the order of their bucket in table `q` (a counting sort). */
function sortByBucket(from: QueryBatch, q: number, to: QueryBatch, counts: Uint32Array): QueryBatch {
  counts.fill(0);
  for (let j = 0; j < from.n; j++) counts[quarter(from.hi[j], from.lo[j], q) + 1]++;
  for (let b = 0; b < BUCKET_COUNT; b++) counts[b + 1] += counts[b];
  for (let j = 0; j < from.n; j++) {
    const i = counts[quarter(from.hi[j], from.lo[j], q)]++;
    to.hi[i] = from.hi[j];
    to.lo[i] = from.lo[j];
    to.below[i] = from.below[j];
    to.tag[i] = from.tag[j];
  }
  return to;
}

/** Every photo of `set` as queries, each looking at the indexed photos before `below(position)`. */
export function queriesOf(set: PackedPhotos, below: (p: number) => number, only?: ArrayLike<number>): Queries {
  const positions = only ?? Array.from(set.ids, (_, p) => p);
  return {
    words: set.words,
    at: Array.from(positions, (p) => p * WORDS),
    ids: Array.from(positions, (p) => set.ids[p]),
    below: Array.from(positions, below),
  };
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
  const all = indexed.ids.length;
  const queries = queriesOf(searching, (p) => (ascending ? p : all));
  const accept = self ? (p: number, other: number) => indexed.ids[other] < searching.ids[p] : undefined;
  const found = index.search(queries, opts.maxDistance, opts.maxPerPhoto, accept, opts);
  const pairs: FoundPair[] = [];
  found.forEach((matches, p) => {
    const id = searching.ids[p];
    for (const m of matches) {
      const otherId = indexed.ids[m.other];
      pairs.push({ a: Math.min(id, otherId), b: Math.max(id, otherId), distance: m.distance, by: m.by });
    }
  });
  opts.progress?.(1);
  return pairs;
}
