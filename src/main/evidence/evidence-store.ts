/**
 * Evidence rows and the stored estimate they produce. Every change to a photo's evidence
 * recomputes its estimate in the same transaction, so the stored estimate is never stale.
 *
 * A rerun supersedes the earlier *pending* evidence from the same source (kept as history);
 * accepted or rejected evidence is never silently replaced.
 */
import type Database from 'better-sqlite3';
import type { EvidenceDetails } from '../../shared/evidence-details';
import {
  decodePrecision,
  estimate,
  type Estimate,
  type EvidenceInput,
  type EvidenceKind,
  type EvidenceSource,
  type ReviewStatus,
} from '../../shared/dating';

export interface NewEvidence {
  kind: EvidenceKind;
  earliest: number | null;
  latest: number | null;
  precision?: string | null;
  confidence: number | null;
  summary: string;
  /** What the source keeps (src/shared/evidence-details.ts: one schema per source). */
  details?: EvidenceDetails[EvidenceSource];
}

export interface EvidenceRow {
  id: number;
  photo_id: number;
  source: EvidenceSource;
  kind: EvidenceKind;
  earliest: number | null;
  latest: number | null;
  precision: string | null;
  confidence: number | null;
  summary: string;
  details: string | null;
  job_id: number | null;
  attempt: number | null;
  review_status: ReviewStatus;
  review_note: string | null;
  superseded_at: number | null;
  created_at: number;
  updated_at: number;
}

export class EvidenceStore {
  private readonly s: Record<string, Database.Statement>;
  private readonly changeListeners: ((photoId: number) => void)[] = [];

  constructor(private readonly sqlite: Database.Database) {
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      supersede: p(
        `UPDATE evidence SET superseded_at = ?, updated_at = ?
          WHERE photo_id = ? AND source = ? AND review_status = 'pending' AND superseded_at IS NULL`,
      ),
      insert: p(
        `INSERT INTO evidence (photo_id, source, kind, earliest, latest, precision, confidence, summary, details, job_id, attempt, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ),
      current: p(`SELECT * FROM evidence WHERE photo_id = ? AND superseded_at IS NULL ORDER BY id`),
      currentOf: p(`SELECT * FROM evidence WHERE photo_id = ? AND superseded_at IS NULL AND source = ? ORDER BY id`),
      all: p(`SELECT * FROM evidence WHERE photo_id = ? ORDER BY id`),
      byId: p(`SELECT * FROM evidence WHERE id = ?`),
      // A review without a note keeps the note already there.
      review: p(`UPDATE evidence SET review_status = ?, review_note = coalesce(?, review_note), updated_at = ? WHERE id = ?`),
      replace: p(
        `UPDATE evidence SET kind = ?, earliest = ?, latest = ?, precision = ?, confidence = ?, summary = ?, details = ?, updated_at = ? WHERE id = ?`,
      ),
      supersedeOne: p(`UPDATE evidence SET superseded_at = ?, updated_at = ? WHERE id = ? AND superseded_at IS NULL`),
      storedEstimate: p(`SELECT estimate FROM photos WHERE id = ?`).pluck(),
      saveEstimate: p(
        `UPDATE photos SET estimate_status = ?, estimate_earliest = ?, estimate_latest = ?, estimate = ?, updated_at = ? WHERE id = ?`,
      ),
    };
  }

  /** In tx. Records what one job attempt found for a photo, superseding that source's earlier pending findings. */
  recordFromJob(
    photoId: number,
    source: EvidenceSource,
    items: readonly NewEvidence[],
    job: { id: number; attempt: number } | null,
  ): number[] {
    const now = Date.now();
    this.s.supersede.run(now, now, photoId, source);
    // A finding the archivist already accepted or rejected is not proposed again by a rerun.
    const reviewed = new Set(
      this.current(photoId)
        .filter((r) => r.source === source && r.review_status !== 'pending')
        .map((r) => `${r.kind}:${r.earliest}:${r.latest}`),
    );
    const fresh = items.filter((e) => !reviewed.has(`${e.kind}:${e.earliest}:${e.latest}`));
    const ids = fresh.map((e) => this.insert(photoId, source, e, job, now));
    this.recompute(photoId);
    return ids;
  }

  /**
   * In tx. The archivist changed the premise of a source's findings (e.g. "this is a camera
   * original"): all of its current findings, reviewed ones too, go to the history; the new ones
   * wait for review.
   */
  replaceSource(photoId: number, source: EvidenceSource, items: readonly NewEvidence[]): number[] {
    const now = Date.now();
    for (const r of this.current(photoId)) if (r.source === source) this.s.supersedeOne.run(now, now, r.id);
    const ids = items.map((e) => this.insert(photoId, source, e, null, now));
    this.recompute(photoId);
    return ids;
  }

  /**
   * In tx. The text a source reads changed (the archivist edited the notes): a finding it no
   * longer says goes to the history, reviewed or not (its premise is gone); one it still says
   * stays as it is, its review kept; the rest are proposed afresh. `track` hears of each row
   * before it changes and of each row created (the undo history).
   */
  rereadSource(
    photoId: number,
    source: EvidenceSource,
    items: readonly NewEvidence[],
    track?: { evidence(id: number): void; created(id: number): void },
  ): number[] {
    const now = Date.now();
    const interval = (e: Pick<NewEvidence, 'kind' | 'earliest' | 'latest'>) => `${e.kind}:${e.earliest}:${e.latest}`;
    // A reviewed finding stays while its interval is still read; a pending one while it reads the same.
    const still = new Set(items.flatMap((e) => [interval(e), `${interval(e)}|${e.summary}`]));
    const kept = new Set<string>();
    let superseded = 0;
    for (const r of this.s.currentOf.all(photoId, source) as EvidenceRow[]) {
      const key = r.review_status === 'pending' ? `${interval(r)}|${r.summary}` : interval(r);
      if (still.has(key)) {
        kept.add(interval(r));
        continue;
      }
      track?.evidence(r.id);
      this.s.supersedeOne.run(now, now, r.id);
      superseded++;
    }
    const ids = items.filter((e) => !kept.has(interval(e))).map((e) => this.insert(photoId, source, e, null, now));
    ids.forEach((id) => track?.created(id));
    // Notes that read the same findings (most edits) change no evidence, so not the estimate either.
    if (superseded || ids.length) this.recompute(photoId);
    return ids;
  }

  /** In tx. Adds evidence without superseding anything (manual constraints). */
  add(photoId: number, source: EvidenceSource, e: NewEvidence, reviewStatus: ReviewStatus = 'pending'): number {
    const now = Date.now();
    const id = this.insert(photoId, source, e, null, now);
    if (reviewStatus !== 'pending') this.setReview(id, reviewStatus, null);
    this.recompute(photoId);
    return id;
  }

  private insert(
    photoId: number,
    source: EvidenceSource,
    e: NewEvidence,
    job: { id: number; attempt: number } | null,
    now: number,
  ): number {
    const row = this.s.insert.get(photoId, source, ...findingColumns(e), job?.id ?? null, job?.attempt ?? null, now, now) as {
      id: number;
    };
    return row.id;
  }

  /** In tx. */
  setReview(id: number, status: ReviewStatus, note: string | null): void {
    this.s.review.run(status, note, Date.now(), id);
  }

  /** In tx. Replaces an item's interval and wording (editing a manual constraint). */
  replaceInterval(id: number, e: NewEvidence): void {
    this.s.replace.run(...findingColumns(e), Date.now(), id);
  }

  /** In tx. Takes an item out of the estimate but keeps it as history. */
  supersede(id: number): void {
    this.s.supersedeOne.run(Date.now(), Date.now(), id);
  }

  /** The stored estimate (as last computed), or a fresh one if none was stored yet. */
  recomputeView(photoId: number): Estimate {
    const stored = this.s.storedEstimate.get(photoId) as string | undefined;
    if (stored) {
      try {
        return JSON.parse(stored) as Estimate;
      } catch {
        /* recompute below */
      }
    }
    return estimate(this.current(photoId).map(toEvidenceInput));
  }

  get(id: number): EvidenceRow | undefined {
    return this.s.byId.get(id) as EvidenceRow | undefined;
  }

  current(photoId: number): EvidenceRow[] {
    return this.s.current.all(photoId) as EvidenceRow[];
  }

  /** Current findings of one source (and kind) in one review state, across photos, in id order. */
  currentMatching(photoIds: number[], source: EvidenceSource, kind: EvidenceKind | null, status: ReviewStatus): EvidenceRow[] {
    const rows: EvidenceRow[] = [];
    // Chunks keep each statement under SQLite's parameter limit.
    for (let i = 0; i < photoIds.length; i += 500) {
      const chunk = photoIds.slice(i, i + 500);
      rows.push(
        ...(this.sqlite
          .prepare(
            `SELECT * FROM evidence WHERE photo_id IN (${chunk.map(() => '?').join(',')}) AND superseded_at IS NULL
               AND source = ? AND review_status = ? AND (? IS NULL OR kind = ?) ORDER BY id`,
          )
          .all(...chunk, source, status, kind, kind) as EvidenceRow[]),
      );
    }
    return rows.sort((a, b) => a.id - b.id);
  }

  history(photoId: number): EvidenceRow[] {
    return this.s.all.all(photoId) as EvidenceRow[];
  }

  /** In tx. Recomputes and stores a photo's estimate from its current evidence. */
  recompute(photoId: number): Estimate {
    const result = estimate(this.current(photoId).map(toEvidenceInput));
    this.s.saveEstimate.run(result.status, result.earliest, result.latest, JSON.stringify(result), Date.now(), photoId);
    for (const listener of this.changeListeners) listener(photoId);
    return result;
  }

  /**
   * `listener` runs inside the transaction of every change to a photo's evidence (every change
   * ends in `recompute`), after the estimate is stored. Duplicates use it: a finding accepted,
   * rejected or replaced on one copy of a photograph updates what it proposed to the others.
   */
  onChange(listener: (photoId: number) => void): void {
    this.changeListeners.push(listener);
  }
}

/** What a finding says, in the column order of the insert and replace statements (kind … details). */
function findingColumns(e: NewEvidence) {
  return [
    e.kind,
    e.earliest,
    e.latest,
    e.precision ?? null,
    e.confidence,
    e.summary,
    e.details ? JSON.stringify(e.details) : null,
  ] as const;
}

export function toEvidenceInput(r: EvidenceRow): EvidenceInput {
  return {
    id: r.id,
    source: r.source,
    kind: r.kind,
    earliest: r.earliest,
    latest: r.latest,
    confidence: r.confidence,
    precision: decodePrecision(r.precision),
    reviewStatus: r.review_status,
    summary: r.summary,
    originSource: r.source === 'duplicate' ? carriedFrom(r.details) : null,
  };
}

/** The source a finding carried from a copy was found by (its details' origin), or null. */
function carriedFrom(details: string | null): EvidenceSource | null {
  try {
    const source = (JSON.parse(details ?? 'null') as { origin?: { source?: unknown } } | null)?.origin?.source;
    return typeof source === 'string' && EVIDENCE_SOURCES.has(source) ? (source as EvidenceSource) : null;
  } catch {
    return null;
  }
}

const EVIDENCE_SOURCES: ReadonlySet<string> = new Set<EvidenceSource>(['exif', 'ocr', 'ai', 'manual', 'duplicate', 'note']);
