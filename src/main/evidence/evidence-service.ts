/**
 * What the review screens ask of evidence: list it with the explained estimate, record review
 * decisions (audited, undoable), and manage the archivist's manual constraints. Every change
 * recomputes the photo's estimate in the same transaction.
 */
import type { EstimateView, EvidenceItem, ManualConstraint } from '../../shared/contract';
import { decodePrecision, toDacs, toEdtf, type Estimate, type ReviewStatus } from '../../shared/dating';
import { CallFailure } from '../../shared/result';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import type { PhotoRepository } from '../photos/photo-repository';
import type { EvidenceRow, EvidenceStore } from './evidence-store';
import { manualEvidence } from './manual-constraint';

export function toEvidenceItem(r: EvidenceRow): EvidenceItem {
  let details: Record<string, unknown> | null = null;
  try {
    details = r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null;
  } catch {
    /* shown as absent */
  }
  const safe = <T>(f: () => T): T | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  const format = { approximate: r.kind === 'estimate', precision: decodePrecision(r.precision) };
  return {
    id: r.id,
    photoId: r.photo_id,
    source: r.source,
    kind: r.kind,
    earliest: r.earliest,
    latest: r.latest,
    precision: r.precision,
    confidence: r.confidence,
    summary: r.summary,
    details,
    jobId: r.job_id,
    attempt: r.attempt,
    reviewStatus: r.review_status,
    reviewNote: r.review_note,
    superseded: r.superseded_at != null,
    createdAt: r.created_at,
    edtf: safe(() => toEdtf(r.earliest, r.latest, format)),
    label: safe(() => toDacs(r.earliest, r.latest, format)),
  };
}

export function toEstimateView(e: Estimate): EstimateView {
  return {
    status: e.status,
    earliest: e.earliest,
    latest: e.latest,
    confidence: e.confidence,
    earliestSetBy: e.earliestSetBy,
    latestSetBy: e.latestSetBy,
    conflicts: e.conflicts,
    edtf: e.edtf,
    dacs: e.dacs,
    explanation: e.explanation,
  };
}

export class EvidenceService {
  constructor(
    private readonly db: LibraryDb,
    private readonly store: EvidenceStore,
    private readonly photos: PhotoRepository,
    private readonly ledger: AuditLedger,
    private readonly onPhotoChanged: (id: number) => void,
  ) {}

  list(photoId: number, includeSuperseded: boolean): { items: EvidenceItem[]; estimate: EstimateView } {
    if (!this.photos.get(photoId)) throw new CallFailure('not_found', `There is no photo ${photoId}`);
    const rows = includeSuperseded ? this.store.history(photoId) : this.store.current(photoId);
    return { items: rows.map(toEvidenceItem), estimate: toEstimateView(this.store.recomputeView(photoId)) };
  }

  review(id: number, status: ReviewStatus, note: string | undefined, undo = false) {
    return this.change(id, (row) => {
      if (row.superseded_at != null)
        throw new CallFailure('conflict', 'This finding was replaced by a later run; review the current one');
      this.store.setReview(id, status, note ?? null);
      this.ledger.append([
        {
          event: undo ? 'evidence_review_undone' : 'evidence_reviewed',
          actor: 'user',
          photoId: row.photo_id,
          data: { evidenceId: id, source: row.source, from: row.review_status, to: status, note: note ?? null },
        },
      ]);
    });
  }

  addManual(photoId: number, constraint: ManualConstraint, note: string) {
    if (!this.photos.get(photoId)) throw new CallFailure('not_found', `There is no photo ${photoId}`);
    let id = 0;
    const estimate = this.db.immediate(() => {
      id = this.store.add(photoId, 'manual', manualEvidence(constraint, note), 'accepted');
      this.ledger.append([
        { event: 'manual_constraint_added', actor: 'user', photoId, data: { evidenceId: id, constraint, note } },
      ]);
      return this.store.recompute(photoId);
    });
    this.onPhotoChanged(photoId);
    return { item: toEvidenceItem(this.store.get(id)!), estimate: toEstimateView(estimate) };
  }

  updateManual(id: number, constraint: ManualConstraint, note: string) {
    return this.change(id, (row) => {
      if (row.source !== 'manual') throw new CallFailure('conflict', 'Only manual constraints can be edited');
      this.store.replaceInterval(id, manualEvidence(constraint, note));
      this.ledger.append([
        { event: 'manual_constraint_edited', actor: 'user', photoId: row.photo_id, data: { evidenceId: id, constraint, note } },
      ]);
    });
  }

  removeManual(id: number) {
    const { estimate } = this.change(id, (row) => {
      if (row.source !== 'manual')
        throw new CallFailure('conflict', 'Only manual constraints can be removed; reject other evidence instead');
      this.store.supersede(id);
      this.ledger.append([
        { event: 'manual_constraint_removed', actor: 'user', photoId: row.photo_id, data: { evidenceId: id } },
      ]);
    });
    return { estimate };
  }

  private change(id: number, fn: (row: EvidenceRow) => void): { item: EvidenceItem; estimate: EstimateView } {
    const row = this.store.get(id);
    if (!row) throw new CallFailure('not_found', `There is no evidence ${id}`);
    const estimate = this.db.immediate(() => {
      fn(row);
      return this.store.recompute(row.photo_id);
    });
    this.onPhotoChanged(row.photo_id);
    return { item: toEvidenceItem(this.store.get(id)!), estimate: toEstimateView(estimate) };
  }
}
