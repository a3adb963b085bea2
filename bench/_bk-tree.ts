/**
 * A BK-tree over 64-bit hashes (Burkhard & Keller 1973), kept here as the alternative the
 * duplicate scan's index was measured against (bench/duplicates.ts). Each node's children are
 * keyed by their distance to it; a search at radius d descends only into children whose key lies
 * within d of the query's distance to the node (the triangle inequality).
 */
import { popcount32 } from '../src/shared/duplicates/hash-set';

export class BkTree {
  // Node n: its entry, and its children as (distance → node) in a flat list per node.
  private readonly entry: Uint32Array;
  private readonly childStart: Int32Array;
  private readonly childKey: Uint8Array;
  private readonly childNext: Int32Array;
  private readonly childNode: Int32Array;
  private nodes = 0;
  private links = 0;
  /** Nodes a search looked at, summed over searches (the figure that decides against this index). */
  visited = 0;

  constructor(
    private readonly hi: Uint32Array,
    private readonly lo: Uint32Array,
  ) {
    const n = hi.length;
    this.entry = new Uint32Array(n);
    this.childStart = new Int32Array(n).fill(-1);
    this.childKey = new Uint8Array(n);
    this.childNext = new Int32Array(n);
    this.childNode = new Int32Array(n);
    for (let e = 0; e < n; e++) this.insert(e);
  }

  private distance(e: number, qhi: number, qlo: number): number {
    return popcount32((this.hi[e] ^ qhi) >>> 0) + popcount32((this.lo[e] ^ qlo) >>> 0);
  }

  private insert(e: number): void {
    const node = this.nodes++;
    this.entry[node] = e;
    if (node === 0) return;
    let at = 0;
    for (;;) {
      const d = this.distance(this.entry[at], this.hi[e], this.lo[e]);
      let link = this.childStart[at];
      while (link >= 0 && this.childKey[link] !== d) link = this.childNext[link];
      if (link >= 0) {
        at = this.childNode[link];
        continue;
      }
      const l = this.links++;
      this.childKey[l] = d;
      this.childNode[l] = node;
      this.childNext[l] = this.childStart[at];
      this.childStart[at] = l;
      return;
    }
  }

  within(qhi: number, qlo: number, maxDistance: number, hit: (entry: number, distance: number) => void): void {
    if (!this.nodes) return;
    const stack = [0];
    while (stack.length) {
      const at = stack.pop()!;
      this.visited++;
      const d = this.distance(this.entry[at], qhi, qlo);
      if (d <= maxDistance) hit(this.entry[at], d);
      for (let l = this.childStart[at]; l >= 0; l = this.childNext[l]) {
        if (Math.abs(this.childKey[l] - d) <= maxDistance) stack.push(this.childNode[l]);
      }
    }
  }
}
