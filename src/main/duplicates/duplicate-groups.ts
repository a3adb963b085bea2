/**
 * The groups the Duplicates screen reviews, built from the pairs and confirmed groups:
 *  - unreviewed: photos joined by pairs the scan proposed (not both in one confirmed group), as
 *    connected groups; a confirmed group touched by such a pair comes along whole, so a new copy
 *    is reviewed beside the copies already confirmed;
 *  - confirmed: each confirmed group of two or more photos;
 *  - different: each "not the same" decision, newest first, with every photo and pair it ruled out
 *    (an 8-copy group ruled out at once is one row, not 28).
 * Groups are ordered by their smallest photo id (unreviewed), group id (confirmed), so a page and
 * the keyboard's order stay put while the archivist works through them.
 */
import type Database from 'better-sqlite3';
import {
  MAX_LISTED_MEMBERS,
  MAX_LISTED_PAIRS,
  type DuplicateGroup,
  type DuplicateMember,
  type DuplicateView,
} from '../../shared/duplicates/contract';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { DuplicateStore, PairRow } from './duplicate-store';

interface Component {
  key: string;
  state: DuplicateView;
  groupId: number | null;
  preferredPhotoId: number | null;
  photoIds: number[];
  pairs: PairRow[];
}

export class DuplicateGroups {
  private readonly evidenceCounts: Database.Statement;

  constructor(
    private readonly store: DuplicateStore,
    private readonly photos: PhotoRepository,
  ) {
    this.evidenceCounts = store.sqlite.prepare(
      `SELECT review_status AS status, source = 'duplicate' AS dup, count(*) AS n
         FROM evidence WHERE photo_id = ? AND superseded_at IS NULL GROUP BY 1, 2`,
    );
  }

  list(view: DuplicateView, offset: number, limit: number) {
    const membership = this.store.memberships();
    const unreviewed = this.unreviewed(membership);
    const confirmed = this.confirmed();
    const counts = { unreviewed: unreviewed.length, confirmed: confirmed.length, different: this.store.countDifferent() };
    const all = view === 'unreviewed' ? unreviewed : view === 'confirmed' ? confirmed : null;
    const page = all ? all.slice(offset, offset + limit) : this.different(offset, limit);
    const total = all ? all.length : counts.different;
    return { groups: page.map((c) => this.describe(c, membership)), total, counts };
  }

  private unreviewed(membership: Map<number, number>): Component[] {
    const sameGroup = (a: number, b: number) => membership.has(a) && membership.get(a) === membership.get(b);
    const pairs = this.store.proposedPairs();
    const open = pairs.filter((p) => !sameGroup(p.photo_lo, p.photo_hi));
    const parent = new Map<number, number>();
    const find = (x: number): number => {
      let r = x;
      while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
      parent.set(x, r);
      return r;
    };
    const union = (a: number, b: number) => {
      const [ra, rb] = [find(a), find(b)];
      if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
    };
    for (const p of open) union(p.photo_lo, p.photo_hi);
    // A confirmed group touched by an open pair comes along whole.
    const byGroup = groupBy(membership, (group) => group);
    for (const photo of [...parent.keys()]) {
      const group = membership.get(photo);
      for (const other of group !== undefined ? byGroup.get(group)! : []) union(photo, other);
    }
    const inComponent = new Map([...parent.keys()].map((photo) => [photo, find(photo)]));
    const components = groupBy(inComponent, (root) => root);
    const componentPairs = new Map<number, PairRow[]>();
    for (const p of pairs) {
      const root = inComponent.get(p.photo_lo);
      if (root === undefined || root !== inComponent.get(p.photo_hi)) continue;
      if (!componentPairs.has(root)) componentPairs.set(root, []);
      componentPairs.get(root)!.push(p);
    }
    return [...components.entries()]
      .sort(([a], [b]) => a - b)
      .map(([root, ids]) => {
        const groups = new Set(ids.map((id) => membership.get(id)).filter((g) => g !== undefined));
        const groupId = groups.size === 1 ? [...groups][0] : null;
        return {
          key: `u${root}`,
          state: 'unreviewed' as const,
          groupId,
          preferredPhotoId: groupId !== null ? (this.store.group(groupId)?.preferred_photo_id ?? null) : null,
          photoIds: ids.sort((a, b) => a - b),
          pairs: componentPairs.get(root) ?? [],
        };
      });
  }

  private confirmed(): Component[] {
    const out: Component[] = [];
    for (const g of this.store.groups()) {
      const ids = this.store.members(g.id);
      if (ids.length < 2) continue;
      const pairs: PairRow[] = [];
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          const p = this.store.pair(ids[i], ids[j]);
          if (p) pairs.push(p);
        }
      }
      out.push({
        key: `g${g.id}`,
        state: 'confirmed',
        groupId: g.id,
        preferredPhotoId: g.preferred_photo_id,
        photoIds: ids,
        pairs,
      });
    }
    return out;
  }

  private different(offset: number, limit: number): Component[] {
    return this.store.differentDecisions(offset, limit).map((pairs) => ({
      key: `d${pairs[0].decided_at}`,
      state: 'different' as const,
      groupId: null,
      preferredPhotoId: null,
      photoIds: [...new Set(pairs.flatMap((p) => [p.photo_lo, p.photo_hi]))].sort((a, b) => a - b),
      pairs,
    }));
  }

  private describe(c: Component, membership: Map<number, number>): DuplicateGroup {
    const { photoIds, pairs } = listedPart(c, membership);
    const members = photoIds.map((id) => this.member(id, membership.get(id) ?? null)).filter((m) => m !== null);
    return {
      key: c.key,
      state: c.state,
      groupId: c.groupId,
      preferredPhotoId: c.preferredPhotoId,
      members,
      memberCount: c.photoIds.length,
      pairCount: c.pairs.length,
      pairs: pairs.map((p) => ({
        a: p.photo_lo,
        b: p.photo_hi,
        distance: p.distance,
        matchedBy: p.matched_by,
        status: p.status,
      })),
    };
  }

  private member(photoId: number, groupId: number | null): DuplicateMember | null {
    const row = this.photos.get(photoId);
    const summary = this.photos.summary(photoId);
    if (!row || !summary) return null;
    const evidence = { accepted: 0, pending: 0, rejected: 0, fromDuplicates: 0 };
    for (const r of this.evidenceCounts.all(photoId) as {
      status: 'accepted' | 'pending' | 'rejected';
      dup: number;
      n: number;
    }[]) {
      evidence[r.status] += r.n;
      if (r.dup) evidence.fromDuplicates += r.n;
    }
    return {
      photoId,
      filename: summary.filename,
      path: summary.path,
      format: summary.format,
      thumbnailVersion: summary.thumbnailVersion,
      displayWidth: summary.displayWidth,
      displayHeight: summary.displayHeight,
      size: row.size,
      missing: summary.missing,
      estimateStatus: summary.estimateStatus,
      estimateLabel: summary.estimateLabel,
      groupId,
      evidence,
    };
  }
}

const closestFirst = (x: PairRow, y: PairRow) =>
  (x.distance ?? 65) - (y.distance ?? 65) || x.photo_lo - y.photo_lo || x.photo_hi - y.photo_hi;

/**
 * The part of a group the list sends (MAX_LISTED_MEMBERS, MAX_LISTED_PAIRS). Of a larger group:
 * the photos already confirmed as one (what a new copy would join), then the photos of the closest
 * matches, so the archivist decides about the strongest matches first; and the closest matches
 * among them. Photos keep their id order and matches the store's, as in a group sent whole.
 */
function listedPart(c: Component, membership: Map<number, number>): { photoIds: number[]; pairs: PairRow[] } {
  let photoIds = c.photoIds;
  if (photoIds.length > MAX_LISTED_MEMBERS) {
    const chosen = new Set<number>();
    const add = (id: number) => chosen.size < MAX_LISTED_MEMBERS && chosen.add(id);
    if (c.groupId !== null) for (const id of photoIds) if (membership.get(id) === c.groupId) add(id);
    for (const p of [...c.pairs].sort(closestFirst)) {
      if (chosen.size >= MAX_LISTED_MEMBERS) break;
      if (chosen.size >= MAX_LISTED_MEMBERS - 1 && !(chosen.has(p.photo_lo) || chosen.has(p.photo_hi))) continue;
      add(p.photo_lo);
      add(p.photo_hi);
    }
    photoIds = photoIds.filter((id) => chosen.has(id));
  }
  const listed = new Set(photoIds);
  let pairs = c.pairs.filter((p) => listed.has(p.photo_lo) && listed.has(p.photo_hi));
  if (pairs.length > MAX_LISTED_PAIRS) {
    const kept = new Set(pairs.sort(closestFirst).slice(0, MAX_LISTED_PAIRS));
    pairs = c.pairs.filter((p) => kept.has(p));
  }
  return { photoIds, pairs };
}

/** Keys of `map` grouped by what `by` makes of their values. */
function groupBy<K, V, G>(map: Map<K, V>, by: (value: V) => G): Map<G, K[]> {
  const out = new Map<G, K[]>();
  for (const [key, value] of map) {
    const g = by(value);
    if (!out.has(g)) out.set(g, []);
    out.get(g)!.push(key);
  }
  return out;
}
