/**
 * Main's half of `constraint_rebuild`: recomputes stored estimates (after an engine or settings
 * change) for a selection or the whole library, a chunk of photos at a time. Each chunk is a short
 * read (load), the engine in a worker, and a short write (apply) — so the library stays
 * responsive — and each apply checkpoints the cursor, so a crash resumes where it stopped. A
 * chunk's size follows main's measured time per photo (rebuild-pace.ts), so neither stretch holds
 * main much past a few ms (the runtime yields a turn between a step's commit and the next load, so
 * a user's write waiting on the event loop runs between them).
 *
 * A photo whose evidence changed after its chunk was read is skipped: that change already
 * recomputed its estimate. The check is optimistic: the evidence's signature (how many current
 * items, latest change) at load must still hold at apply. An estimate that comes out as stored is
 * not written again (after an engine change most do not move), so nothing is told it changed, and
 * one whose state and ends stay writes its explanation alone (no index or count trigger moves).
 *
 * Load reads only the columns the engine uses, in index order: `SELECT *` with an ORDER BY that
 * needed a temporary sort cost about twice as much of main's time per chunk.
 */
import type Database from 'better-sqlite3';
import type { RebuildInput } from '../../shared/jobs/outputs/rebuild';
import type { ConstraintRebuildJobType } from '../../shared/jobs/types/constraint-rebuild';
import type { PayloadOf } from '../../shared/jobs/define';
import type { MainHalf } from '../jobs/registry';
import { toEvidenceInput, type EvidenceRow } from '../evidence/evidence-store';
import type { UserActivity } from '../ipc/user-activity';
import { RebuildPace, userPacedBudget } from './rebuild-pace';

export { REBUILD_CHUNK } from './rebuild-pace';

export type RebuildPayload = PayloadOf<ConstraintRebuildJobType>;

export function rebuildJob(deps: {
  sqlite: Database.Database;
  onPhotosChanged(ids: number[]): void;
  /** When the archivist last asked main for something: steps are smaller while they are active. */
  userActivity?: Pick<UserActivity, 'activeWithin'>;
  /** Sizes each step to main's time budget; tests may pass one with its own budget. */
  pace?: RebuildPace;
}): MainHalf<ConstraintRebuildJobType> {
  const { sqlite } = deps;
  const pace = deps.pace ?? new RebuildPace(deps.userActivity ? userPacedBudget(deps.userActivity) : undefined);
  const nextAll = sqlite.prepare('SELECT id FROM photos WHERE id > ? ORDER BY id LIMIT ?');
  const anyAfter = sqlite.prepare('SELECT EXISTS (SELECT 1 FROM photos WHERE id > ?)').pluck();
  const countAll = sqlite.prepare('SELECT count(*) FROM photos').pluck();
  const evidenceBetween = sqlite.prepare(
    `SELECT photo_id, id, source, kind, earliest, latest, confidence, precision, review_status, summary, updated_at
       FROM evidence WHERE photo_id BETWEEN ? AND ? AND superseded_at IS NULL`,
  );
  const saveAll = sqlite.prepare(
    `UPDATE photos SET estimate_status = @status, estimate_earliest = @earliest, estimate_latest = @latest, estimate = @json,
            updated_at = @now
      WHERE id = @photoId AND estimate IS NOT @json`,
  );
  // Most estimates keep their state and ends after an engine change: their indexes and the count
  // trigger are left alone when only the explained estimate is written.
  const saveExplanation = sqlite.prepare(
    `UPDATE photos SET estimate = @json, updated_at = @now WHERE id = @photoId AND estimate IS NOT @json`,
  );
  // What the chunk's photos are now, read once per chunk in apply's transaction (one statement
  // instead of a correlated subquery in each photo's UPDATE).
  const storedNow = sqlite.prepare(
    `SELECT id, estimate_status AS status, estimate_earliest AS earliest, estimate_latest AS latest
       FROM photos WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const evidenceVersions = sqlite
    .prepare(
      `SELECT photo_id, count(*) || ':' || coalesce(max(updated_at), 0) FROM evidence
        WHERE photo_id IN (SELECT value FROM json_each(?)) AND superseded_at IS NULL GROUP BY photo_id`,
    )
    .raw();
  type Ends = { status: string; earliest: number | null; latest: number | null };
  const sameEnds = (a: Ends, b: Ends) => a.status === b.status && a.earliest === b.earliest && a.latest === b.latest;

  const chunkIds = (p: RebuildPayload, size: number): { id: number }[] => {
    const after = p.cursor?.afterId ?? 0;
    if (!p.photoIds) return nextAll.all(after, size) as { id: number }[];
    const wanted = [...new Set(p.photoIds)]
      .filter((id) => id > after)
      .sort((a, b) => a - b)
      .slice(0, size);
    if (!wanted.length) return [];
    return sqlite
      .prepare(`SELECT id FROM photos WHERE id IN (${wanted.map(() => '?').join(',')}) ORDER BY id`)
      .all(...wanted) as {
      id: number;
    }[];
  };
  // Whether a step after `afterId` has photos to recompute (a selection's may since have gone: the
  // next step then finds none and ends the job).
  const hasMore = (p: RebuildPayload, afterId: number): boolean =>
    p.photoIds ? p.photoIds.some((id) => id > afterId) : anyAfter.get(afterId) === 1;

  return {
    load({ payload }) {
      const startedAt = pace.start();
      const rows = chunkIds(payload, pace.nextSize());
      if (!rows.length) return { photos: [] };
      const byPhoto = new Map<number, RebuildInput['photos'][number]>();
      const latest = new Map<number, number>();
      for (const r of rows) byPhoto.set(r.id, { id: r.id, version: '', evidence: [] });
      for (const e of evidenceBetween.all(rows[0].id, rows[rows.length - 1].id) as EvidenceRow[]) {
        const p = byPhoto.get(e.photo_id);
        if (!p) continue;
        p.evidence.push(toEvidenceInput(e));
        latest.set(e.photo_id, Math.max(latest.get(e.photo_id) ?? 0, e.updated_at));
      }
      for (const p of byPhoto.values()) p.version = `${p.evidence.length}:${latest.get(p.id) ?? 0}`;
      pace.record('load', startedAt, rows.length);
      return { photos: [...byPhoto.values()] };
    },
    apply(out, job) {
      const startedAt = pace.start();
      const now = Date.now();
      const changed: number[] = [];
      // Read in this transaction, so what is compared is what the update meets.
      const ids = JSON.stringify(out.estimates.map((x) => x.photoId));
      const stored = new Map((storedNow.all(ids) as (Ends & { id: number })[]).map((r) => [r.id, r]));
      const versions = new Map(evidenceVersions.all(ids) as [number, string][]);
      for (const e of out.estimates) {
        const current = stored.get(e.photoId);
        // Gone, or its evidence changed since load (that change recomputed it): skipped.
        if (!current || (versions.get(e.photoId) ?? '0:0') !== e.version) continue;
        const save = sameEnds(current, e) ? saveExplanation : saveAll;
        const row = { status: e.status, earliest: e.earliest, latest: e.latest, json: e.json, now, photoId: e.photoId };
        if (save.run(row).changes) changed.push(e.photoId);
      }
      pace.record('apply', startedAt, out.estimates.length);
      deps.onPhotosChanged(changed);
      const p = job.payload;
      const total = p.cursor?.total ?? (p.photoIds ? new Set(p.photoIds).size : (countAll.get() as number));
      const done = (p.cursor?.done ?? 0) + out.estimates.length;
      const summary = `${done} of ${total} estimates recomputed`;
      const afterId = out.estimates.at(-1)?.photoId;
      if (afterId === undefined || !hasMore(p, afterId)) return summary;
      return {
        summary,
        progress: total ? Math.min(1, done / total) : 1,
        continueWith: { ...p, cursor: { afterId, done, total } },
      };
    },
  };
}
