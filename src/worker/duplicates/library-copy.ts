/**
 * A worker's copy of the library's duplicate hashes, kept between scans so that a scan after an
 * import is sent only what changed, not the whole library again.
 *
 * Two layers, because filing 100,000 photos in the index costs far more than a scan of a few new
 * ones: the filed layer (the photos as of the last filing, ids ascending, indexed once) and the
 * recent layer (photos added or given new hashes since, indexed again when it changes; it is
 * small). A photo lives in exactly one layer: a change kills its filed entry. When the recent
 * layer outgrows a share of the filed one, both are filed together again, here, from the copy.
 */
import { HASHES_PER_PHOTO, MATCHED_BY, blobInto } from '../../shared/duplicates/hash-set';
import type { ChangedHashes, HashPage, PackedPhotos } from '../../shared/jobs/outputs/duplicate-scan';
import { PhotoIndex, queriesOf, type Match } from './find-pairs';

const WORDS = 2 * HASHES_PER_PHOTO;
const BLOB_BYTES = 8 * HASHES_PER_PHOTO;
/** The recent layer is filed with the rest once it holds more than `share` of the filed photos, and more than `min`. */
export const REFILE = { share: 0.25, min: 2_048 };

/** A layer: photos in ascending id order, the index over them (built when first searched), and which are still current. */
class Layer {
  private index: PhotoIndex | null = null;
  readonly alive: Uint8Array;
  readonly ascending: boolean;

  constructor(readonly set: PackedPhotos) {
    this.alive = new Uint8Array(set.ids.length).fill(1);
    this.ascending = set.ids.every((id, p) => p === 0 || set.ids[p - 1] < id);
  }

  get indexed(): PhotoIndex {
    return (this.index ??= new PhotoIndex(this.set));
  }

  /** The position of photo `id`, or -1. */
  positionOf(id: number): number {
    const ids = this.set.ids;
    if (!this.ascending) return ids.indexOf(id);
    const p = lowerBound(ids, id);
    return p < ids.length && ids[p] === id ? p : -1;
  }

  /** Bytes held (the index counted once it is built). */
  bytes(): number {
    return this.set.ids.byteLength + this.set.words.byteLength + this.alive.byteLength + (this.index?.bytes() ?? 0);
  }
}

function lowerBound(ids: Int32Array, id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Found {
  /** Per pair: a, b (a < b), distance, how (an index into MATCHED_BY). */
  pairs: number[];
  queried: number;
}

export class LibraryCopy {
  private filed: Layer;
  private filedAlive: number;
  /** Photos added or changed since the filing: their hashes by id. */
  private readonly recent = new Map<number, Uint32Array>();
  private recentLayer: Layer | null = null;
  /** Photos not yet scanned at the current scan's distance. */
  private unscanned = new Set<number>();

  /** `base`: the time the copy holds the library as of. */
  constructor(
    readonly library: string,
    public base: number,
    pages: readonly HashPage[],
  ) {
    let total = 0;
    for (const page of pages) total += page.ids.length;
    const ids = new Int32Array(total);
    const words = new Uint32Array(total * WORDS);
    let n = 0;
    for (const page of pages) {
      for (let i = 0; i < page.ids.length; i++) {
        if (!blobInto(page.blobs.subarray(i * BLOB_BYTES, (i + 1) * BLOB_BYTES), words, n * WORDS)) continue;
        ids[n] = page.ids[i];
        if (page.unscanned[i]) this.unscanned.add(page.ids[i]);
        n++;
      }
    }
    this.filed = new Layer({ ids: ids.slice(0, n), words: words.slice(0, n * WORDS) });
    this.filedAlive = n;
  }

  /** Photos held. */
  get count(): number {
    return this.filedAlive + this.recent.size;
  }

  /**
   * Takes in what changed since the copy's base: each row replaces the photo's hashes, or drops
   * the photo when it is no longer usable. `unscanned` lists every photo not scanned yet.
   */
  update(changed: ChangedHashes, unscanned: Int32Array, base: number): void {
    for (let i = 0; i < changed.ids.length; i++) {
      const id = changed.ids[i];
      const p = this.filed.positionOf(id);
      if (p >= 0 && this.filed.alive[p]) {
        this.filed.alive[p] = 0;
        this.filedAlive--;
      }
      this.recent.delete(id);
      const words = new Uint32Array(WORDS);
      if (changed.usable[i] && blobInto(changed.blobs.subarray(i * BLOB_BYTES, (i + 1) * BLOB_BYTES), words, 0)) {
        this.recent.set(id, words);
      }
    }
    if (changed.ids.length) this.recentLayer = null;
    this.unscanned = new Set(unscanned);
    this.base = base;
    if (this.recent.size > Math.max(REFILE.min, REFILE.share * this.filedAlive)) this.refile();
  }

  /** Lets go of every photo not in `ids` (ascending): photos removed from the library leave no changed row. */
  keepOnly(ids: Int32Array): void {
    const keep = (id: number) => {
      const p = lowerBound(ids, id);
      return p < ids.length && ids[p] === id;
    };
    const { set, alive } = this.filed;
    for (let p = 0; p < set.ids.length; p++) {
      if (alive[p] && !keep(set.ids[p])) {
        alive[p] = 0;
        this.filedAlive--;
      }
    }
    for (const id of [...this.recent.keys()]) {
      if (!keep(id)) {
        this.recent.delete(id);
        this.recentLayer = null;
      }
    }
  }

  /** Files every photo in one layer again (the recent ones with the rest). */
  private refile(): void {
    const n = this.count;
    const ids = new Int32Array(n);
    const words = new Uint32Array(n * WORDS);
    const { set, alive } = this.filed;
    const recentIds = [...this.recent.keys()].sort((a, b) => a - b);
    let e = 0;
    let r = 0;
    const take = (id: number, from: Uint32Array, at: number) => {
      ids[e] = id;
      words.set(from.subarray(at, at + WORDS), e++ * WORDS);
    };
    for (let p = 0; p < set.ids.length; p++) {
      if (!alive[p]) continue;
      while (r < recentIds.length && recentIds[r] < set.ids[p]) take(recentIds[r], this.recent.get(recentIds[r++])!, 0);
      take(set.ids[p], set.words, p * WORDS);
    }
    while (r < recentIds.length) take(recentIds[r], this.recent.get(recentIds[r++])!, 0);
    this.filed = new Layer({ ids, words });
    this.filedAlive = n;
    this.recent.clear();
    this.recentLayer = null;
  }

  private get recentFiled(): Layer {
    if (!this.recentLayer) {
      const ids = Int32Array.from([...this.recent.keys()].sort((a, b) => a - b));
      const words = new Uint32Array(ids.length * WORDS);
      ids.forEach((id, p) => words.set(this.recent.get(id)!, p * WORDS));
      this.recentLayer = new Layer({ ids, words });
    }
    return this.recentLayer;
  }

  /**
   * Searches the copy with its photos not scanned yet whose ids lie in [fromId, toId]. Each pair
   * is kept once: with a scanned photo, or with an unscanned one of a smaller id (that one was
   * searched in an earlier chunk, or earlier in this one, and left this pair to it). A photo's
   * matches are its `maxPerPhoto` nearest over both layers, as one index over all would give.
   */
  search(
    q: { fromId: number; toId: number; maxDistance: number; maxPerPhoto: number },
    ctl: { signal?: AbortSignal; progress?(fraction: number): void } = {},
  ): Found {
    const layers = [this.filed, this.recentFiled];
    const chunk = [...this.unscanned].filter((id) => id >= q.fromId && id <= q.toId).sort((a, b) => a - b);
    const queryIds: number[] = [];
    const words = new Uint32Array(chunk.length * WORDS);
    for (const id of chunk) {
      const held = this.hashesOf(id);
      if (held) words.set(held, queryIds.push(id) * WORDS - WORDS);
    }
    const queries: PackedPhotos = { ids: Int32Array.from(queryIds), words: words.subarray(0, queryIds.length * WORDS) };
    const perLayer = layers.map((layer, l) =>
      this.searchLayer(layer, queries, q.maxDistance, q.maxPerPhoto, {
        signal: ctl.signal,
        progress: (f) => ctl.progress?.((l + f) / layers.length),
      }),
    );
    const pairs: number[] = [];
    queryIds.forEach((id, j) => {
      const matches = perLayer.flatMap((found, l) => found[j].map((m) => ({ ...m, otherId: layers[l].set.ids[m.other] })));
      matches.sort((x, y) => x.distance - y.distance || x.otherId - y.otherId);
      for (const m of matches.slice(0, q.maxPerPhoto)) {
        pairs.push(Math.min(id, m.otherId), Math.max(id, m.otherId), m.distance, MATCHED_BY.indexOf(m.by));
      }
    });
    return { pairs, queried: queryIds.length };
  }

  private searchLayer(
    layer: Layer,
    queries: PackedPhotos,
    maxDistance: number,
    maxPerPhoto: number,
    ctl: { signal?: AbortSignal; progress?(fraction: number): void },
  ): Match[][] {
    const { ids } = layer.set;
    if (!ids.length || !queries.ids.length) return Array.from(queries.ids, () => []);
    const { alive } = layer;
    const unscanned = this.unscanned;
    // Past the last current, scanned photo every photo is unscanned (or gone): a query accepts
    // only those of smaller ids, so in id order its search stops where its own id would be.
    let lastScanned = ids.length - 1;
    while (lastScanned >= 0 && !(alive[lastScanned] && !unscanned.has(ids[lastScanned]))) lastScanned--;
    const below = (j: number) => (layer.ascending ? Math.max(lastScanned + 1, lowerBound(ids, queries.ids[j])) : ids.length);
    const accept = (j: number, other: number) =>
      alive[other] === 1 && (!unscanned.has(ids[other]) || ids[other] < queries.ids[j]);
    return layer.indexed.search(queriesOf(queries, below), maxDistance, maxPerPhoto, accept, ctl);
  }

  /** The current hashes of photo `id`, if the copy holds it. */
  private hashesOf(id: number): Uint32Array | undefined {
    const recent = this.recent.get(id);
    if (recent) return recent;
    const p = this.filed.positionOf(id);
    return p >= 0 && this.filed.alive[p] ? this.filed.set.words.subarray(p * WORDS, (p + 1) * WORDS) : undefined;
  }

  /** Bytes the copy holds in typed arrays (its indexes included once built). */
  bytes(): number {
    return this.filed.bytes() + (this.recentLayer?.bytes() ?? 0) + this.recent.size * (WORDS * 4 + 64) + this.unscanned.size * 16;
  }
}
