/**
 * SQL for duplicates: the pairs the scan found (`proposed`) or the archivist ruled out
 * (`different`), and the confirmed groups with their members. Plain statements; the rules (what
 * a decision means, what is audited, what evidence travels) live in duplicate-review.ts.
 */
import type Database from 'better-sqlite3';
import type { MatchedBy } from '../../shared/duplicates/hash-set';

export interface PairRow {
  photo_lo: number;
  photo_hi: number;
  distance: number | null;
  matched_by: MatchedBy | null;
  status: 'proposed' | 'different';
  found_at: number | null;
  decided_at: number | null;
}

export interface GroupRow {
  id: number;
  preferred_photo_id: number | null;
  confirmed_at: number;
  updated_at: number;
}

export const ordered = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);

export class DuplicateStore {
  private readonly s: Record<string, Database.Statement>;

  constructor(readonly sqlite: Database.Database) {
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      pair: p(`SELECT * FROM duplicate_pairs WHERE photo_lo = ? AND photo_hi = ?`),
      // Kept only while both photos still have the hashes the step compared.
      found: p(
        `INSERT INTO duplicate_pairs (photo_lo, photo_hi, distance, matched_by, status, found_at)
         SELECT @a, @b, @distance, @by, 'proposed', @now
          WHERE (SELECT updated_at FROM photo_hashes WHERE photo_id = @a) < @loadedAt
            AND (SELECT updated_at FROM photo_hashes WHERE photo_id = @b) < @loadedAt
         ON CONFLICT (photo_lo, photo_hi) DO UPDATE SET distance = excluded.distance, matched_by = excluded.matched_by,
                found_at = coalesce(duplicate_pairs.found_at, excluded.found_at)`,
      ),
      different: p(
        `INSERT INTO duplicate_pairs (photo_lo, photo_hi, status, decided_at) VALUES (?, ?, 'different', ?)
         ON CONFLICT (photo_lo, photo_hi) DO UPDATE SET status = 'different', decided_at = excluded.decided_at
          WHERE duplicate_pairs.status != 'different'`,
      ),
      // Back to what the scan said; a pair it never found goes.
      undecide: p(`UPDATE duplicate_pairs SET status = 'proposed', decided_at = NULL WHERE photo_lo = ? AND photo_hi = ?
                     AND status = 'different' AND distance IS NOT NULL`),
      forget: p(`DELETE FROM duplicate_pairs WHERE photo_lo = ? AND photo_hi = ? AND status = 'different' AND distance IS NULL`),
      proposed: p(`SELECT * FROM duplicate_pairs WHERE status = 'proposed'`),
      // One "not the same" decision is the pairs it marked, which share its decided_at (see decisionTime).
      differentPage: p(
        `SELECT DISTINCT decided_at FROM duplicate_pairs WHERE status = 'different' ORDER BY decided_at DESC LIMIT ? OFFSET ?`,
      ).pluck(),
      decidedAt: p(`SELECT * FROM duplicate_pairs WHERE status = 'different' AND decided_at = ? ORDER BY photo_lo, photo_hi`),
      lastDecided: p(`SELECT max(decided_at) FROM duplicate_pairs WHERE status = 'different'`).pluck(),
      countDifferent: p(`SELECT count(DISTINCT decided_at) FROM duplicate_pairs WHERE status = 'different'`).pluck(),
      groupOf: p(`SELECT group_id FROM duplicate_group_members WHERE photo_id = ?`).pluck(),
      members: p(`SELECT photo_id FROM duplicate_group_members WHERE group_id = ? ORDER BY photo_id`).pluck(),
      allMembers: p(`SELECT photo_id, group_id FROM duplicate_group_members`),
      group: p(`SELECT * FROM duplicate_groups WHERE id = ?`),
      groups: p(`SELECT * FROM duplicate_groups ORDER BY id`),
      newGroup: p(`INSERT INTO duplicate_groups (confirmed_at, updated_at) VALUES (?, ?) RETURNING id`).pluck(),
      join: p(
        `INSERT INTO duplicate_group_members (photo_id, group_id, added_at) VALUES (?, ?, ?)
         ON CONFLICT (photo_id) DO UPDATE SET group_id = excluded.group_id, added_at = excluded.added_at`,
      ),
      leave: p(`DELETE FROM duplicate_group_members WHERE photo_id = ?`),
      dropGroup: p(`DELETE FROM duplicate_groups WHERE id = ?`),
      touchGroup: p(`UPDATE duplicate_groups SET updated_at = ? WHERE id = ?`),
      prefer: p(`UPDATE duplicate_groups SET preferred_photo_id = ?, updated_at = ? WHERE id = ?`),
    };
  }

  pair(a: number, b: number): PairRow | undefined {
    return this.s.pair.get(...ordered(a, b)) as PairRow | undefined;
  }

  /** In tx. A pair the scan found; true when it is new. Skipped when either photo's hashes changed after `loadedAt`. */
  found(a: number, b: number, distance: number, by: MatchedBy, loadedAt: number, now: number): boolean {
    const [lo, hi] = ordered(a, b);
    const before = this.s.pair.get(lo, hi);
    const changes = this.s.found.run({ a: lo, b: hi, distance, by, loadedAt, now }).changes;
    return !before && changes > 0;
  }

  /** In tx. The archivist says these two are not the same photograph; true when that is news. */
  markDifferent(a: number, b: number, now: number): boolean {
    return this.s.different.run(...ordered(a, b), now).changes > 0;
  }

  /** In tx. Takes back a "not the same"; true when there was one. */
  undoDifferent(a: number, b: number): boolean {
    const [lo, hi] = ordered(a, b);
    return this.s.undecide.run(lo, hi).changes + this.s.forget.run(lo, hi).changes > 0;
  }

  proposedPairs(): PairRow[] {
    return this.s.proposed.all() as PairRow[];
  }

  /**
   * In tx. The time that names a new "not the same" decision: now, or just after the last one, so
   * that two decisions never share a decided_at and each is listed as one.
   */
  decisionTime(now: number): number {
    const last = this.s.lastDecided.get() as number | null;
    return last !== null && last >= now ? last + 1 : now;
  }

  /** A page of "not the same" decisions, newest first: each the pairs one decision marked. */
  differentDecisions(offset: number, limit: number): PairRow[][] {
    const times = this.s.differentPage.all(limit, offset) as number[];
    return times.map((t) => this.s.decidedAt.all(t) as PairRow[]);
  }

  countDifferent(): number {
    return this.s.countDifferent.get() as number;
  }

  groupOf(photoId: number): number | undefined {
    return this.s.groupOf.get(photoId) as number | undefined;
  }

  members(groupId: number): number[] {
    return this.s.members.all(groupId) as number[];
  }

  /** Every confirmed photo and its group. */
  memberships(): Map<number, number> {
    const rows = this.s.allMembers.all() as { photo_id: number; group_id: number }[];
    return new Map(rows.map((r) => [r.photo_id, r.group_id]));
  }

  group(id: number): GroupRow | undefined {
    return this.s.group.get(id) as GroupRow | undefined;
  }

  groups(): GroupRow[] {
    return this.s.groups.all() as GroupRow[];
  }

  /** In tx. */
  createGroup(now: number): number {
    return this.s.newGroup.get(now, now) as number;
  }

  /** In tx. Moves the photo into the group (out of any other). */
  join(photoId: number, groupId: number, now: number): void {
    this.s.join.run(photoId, groupId, now);
    this.s.touchGroup.run(now, groupId);
  }

  /** In tx. */
  leave(photoId: number): void {
    this.s.leave.run(photoId);
  }

  /** In tx. The group and its memberships. */
  dropGroup(id: number): void {
    this.s.dropGroup.run(id);
  }

  /** In tx. */
  setPreferred(groupId: number, photoId: number | null, now: number): void {
    this.s.prefer.run(photoId, now, groupId);
  }
}
