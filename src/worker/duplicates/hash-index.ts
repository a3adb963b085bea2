/**
 * Multi-index hashing (Norouzi, Punjani & Fleet, "Fast search in Hamming space with multi-index
 * hashing", CVPR 2012) over 64-bit hashes: every hash is filed in four tables, one per 16-bit
 * quarter. Two hashes at most `d` bits apart differ in some quarter by at most ⌊d/4⌋ bits
 * (pigeonhole), so a search looks, in each table, at the buckets within ⌊d/4⌋ bits of the query's
 * quarter (17 buckets each at the default d = 6) and checks only what it finds there.
 *
 * Chosen over a BK-tree by measurement (`npm run bench -- duplicates`): in 64-bit Hamming space a
 * BK-tree query at d = 6 still visits a large share of the tree, while these tables check about
 * 4 × 17 × n / 65,536 candidates per query. A table is flat arrays (bucket starts; the hashes in
 * bucket order), built by one counting sort. From ⌊d/4⌋ = 4 (d ≥ 16) on, the buckets to visit
 * outnumber what they hold and a plain scan is faster, so the index scans.
 */
import { popcount32 } from '../../shared/duplicates/hash-set';

const QUARTERS = 4;
const BUCKETS = 1 << 16;
/** Above this quarter radius the index scans every entry instead. */
const MAX_QUARTER_RADIUS = 3;

/** Buckets `probeMany` lists at a time, at most (12 bytes each; tests make it small to take many blocks). */
export const PROBING = { perBlock: 1 << 15 };
/** (query, first slot, end) per bucket of a block, grown as needed: one for the process's indexes (a worker searches one at a time). */
let RANGES = new Uint32Array(0);

/** 16-bit masks with at most r bits set, for r = 0..MAX_QUARTER_RADIUS, fewest bits first. */
const MASKS: Uint16Array[] = (() => {
  const byBits: number[][] = Array.from({ length: 17 }, () => []);
  for (let m = 0; m < BUCKETS; m++) byBits[popcount32(m)].push(m);
  return Array.from({ length: MAX_QUARTER_RADIUS + 1 }, (_, r) => Uint16Array.from(byBits.slice(0, r + 1).flat()));
})();

/** Quarter `q` (0 = the highest 16 bits) of a hash: its bucket in table `q`. */
export function quarter(hi: number, lo: number, q: number): number {
  switch (q) {
    case 0:
      return hi >>> 16;
    case 1:
      return hi & 0xffff;
    case 2:
      return lo >>> 16;
    default:
      return lo & 0xffff;
  }
}

export const TABLES = QUARTERS;

/** Queries searched together (`probeMany`): their hashes' halves, the entry each stops below, and the tag its hits carry. */
export interface QueryBatch {
  hi: Uint32Array;
  lo: Uint32Array;
  below: Uint32Array;
  tag: Uint32Array;
  n: number;
}
export const BUCKET_COUNT = BUCKETS;

/** A growing list of (tag, entry, distance) triples. */
export class Hits {
  data = new Int32Array(3 * 1024);
  length = 0;

  push(tag: number, entry: number, distance: number): void {
    if (this.length + 3 > this.data.length) {
      const grown = new Int32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = tag;
    this.data[this.length++] = entry;
    this.data[this.length++] = distance;
  }
}

export class HashIndex {
  private readonly starts: Uint32Array[] = [];
  // Per table, the slots in bucket order, three words each: the hash's high and low halves and the
  // entry it is. A bucket is read front to back in one stream, its entries in ascending order.
  private readonly slots: Uint32Array[] = [];

  /** Files `count` hashes given as high and low 32-bit halves; an entry is known by its position. */
  constructor(
    readonly hi: Uint32Array,
    readonly lo: Uint32Array,
    readonly count = hi.length,
  ) {
    for (let q = 0; q < QUARTERS; q++) {
      const starts = new Uint32Array(BUCKETS + 1);
      for (let e = 0; e < count; e++) starts[quarter(hi[e], lo[e], q) + 1]++;
      for (let b = 0; b < BUCKETS; b++) starts[b + 1] += starts[b];
      const next = starts.slice(0, BUCKETS);
      const slots = new Uint32Array(3 * count);
      for (let e = 0; e < count; e++) {
        const i = 3 * next[quarter(hi[e], lo[e], q)]++;
        slots[i] = hi[e];
        slots[i + 1] = lo[e];
        slots[i + 2] = e;
      }
      this.starts.push(starts);
      this.slots.push(slots);
    }
  }

  /**
   * Calls `hit(entry, distance)` once for every entry before `below` within `maxDistance` bits of
   * the query. (A caller that wants each pair of its own entries once passes the query's own
   * position: the entries after it are skipped without being compared.)
   */
  within(
    qhi: number,
    qlo: number,
    maxDistance: number,
    hit: (entry: number, distance: number) => void,
    below = this.count,
  ): void {
    if (!this.probes(maxDistance)) return this.scan(qhi, qlo, maxDistance, hit, below);
    const { found, one } = this;
    found.length = 0;
    one.hi[0] = qhi;
    one.lo[0] = qlo;
    one.below[0] = below;
    for (let q = 0; q < QUARTERS; q++) this.probeMany(q, one, maxDistance, found);
    for (let i = 0; i < found.length; i += 3) hit(found.data[i + 1], found.data[i + 2]);
  }

  /** Whether searches at this distance probe the tables (`probeMany`), rather than scan every entry. */
  probes(maxDistance: number): boolean {
    return Math.floor(maxDistance / QUARTERS) <= MAX_QUARTER_RADIUS;
  }

  /**
   * Table `q`'s share of searching with many queries at once, in two passes so that
   * the processor has many memory reads in flight instead of one: first the queries' buckets'
   * bounds (independent reads of `starts`), then the slots of each bucket found non-empty. A probe
   * one query at a time waits on each read, and the tables are far larger than the caches. The
   * queries go in blocks, so the list of buckets stays small at any distance.
   */
  probeMany(q: number, queries: QueryBatch, maxDistance: number, out: Hits): void {
    const masks = MASKS[Math.floor(maxDistance / QUARTERS)];
    const block = Math.max(1, Math.floor(PROBING.perBlock / masks.length));
    if (RANGES.length < 3 * block * masks.length) RANGES = new Uint32Array(3 * block * masks.length);
    for (let from = 0; from < queries.n; from += block) {
      const k = this.bucketsOf(q, queries, masks, from, Math.min(queries.n, from + block));
      this.readBuckets(q, queries, maxDistance, k, out);
    }
  }

  /** Into `ranges`: (query, first slot, end) for each non-empty bucket of queries [from, to); how many words. */
  private bucketsOf(q: number, queries: QueryBatch, masks: Uint16Array, from: number, to: number): number {
    const starts = this.starts[q];
    const ranges = RANGES;
    let k = 0;
    for (let j = from; j < to; j++) {
      const key = quarter(queries.hi[j], queries.lo[j], q);
      for (let m = 0; m < masks.length; m++) {
        const bucket = key ^ masks[m];
        const first = starts[bucket];
        const end = starts[bucket + 1];
        if (first === end) continue;
        ranges[k++] = j;
        ranges[k++] = first;
        ranges[k++] = end;
      }
    }
    return k;
  }

  /**
   * The matches in the buckets `bucketsOf` listed, appended to `out` as (the query's tag, entry,
   * distance). A bucket holds its entries in ascending order, so a query stops at its `below`; a
   * match close enough in an earlier quarter was reported from that quarter's table.
   */
  private readBuckets(q: number, queries: QueryBatch, maxDistance: number, k: number, out: Hits): void {
    const r = Math.floor(maxDistance / QUARTERS);
    const slots = this.slots[q];
    const ranges = RANGES;
    for (let i = 0; i < k; i += 3) {
      const j = ranges[i];
      const qhi = queries.hi[j];
      const qlo = queries.lo[j];
      const below = queries.below[j];
      for (let s = 3 * ranges[i + 1], end = 3 * ranges[i + 2]; s < end; s += 3) {
        const entry = slots[s + 2];
        if (entry >= below) break;
        const h = slots[s];
        const l = slots[s + 1];
        const d = popcount32((qhi ^ h) >>> 0) + popcount32((qlo ^ l) >>> 0);
        if (d > maxDistance) continue;
        let earlier = false;
        for (let p = 0; p < q && !earlier; p++) earlier = popcount32(quarter(qhi, qlo, p) ^ quarter(h, l, p)) <= r;
        if (!earlier) out.push(queries.tag[j], entry, d);
      }
    }
  }

  private readonly found = new Hits();
  private readonly one: QueryBatch = {
    hi: new Uint32Array(1),
    lo: new Uint32Array(1),
    below: new Uint32Array(1),
    tag: new Uint32Array(1),
    n: 1,
  };

  /** Bytes its tables hold (the hashes it was given are the caller's). */
  bytes(): number {
    let n = 0;
    for (let q = 0; q < QUARTERS; q++) n += this.starts[q].byteLength + this.slots[q].byteLength;
    return n;
  }

  private scan(
    qhi: number,
    qlo: number,
    maxDistance: number,
    hit: (entry: number, distance: number) => void,
    below: number,
  ): void {
    const { hi, lo } = this;
    for (let e = 0; e < Math.min(below, this.count); e++) {
      const d = popcount32((qhi ^ hi[e]) >>> 0) + popcount32((qlo ^ lo[e]) >>> 0);
      if (d <= maxDistance) hit(e, d);
    }
  }
}
