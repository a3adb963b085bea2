/**
 * What the review screens ask of evidence: list it with the explained estimate, record review
 * decisions (one or many at once), and manage the archivist's manual constraints. Every change is
 * one audited action in the undo history (action-log.ts) and recomputes the photo's estimate in
 * the same transaction.
 */
import type { ActionSummary, EstimateView, EvidenceItem, ManualConstraint } from '../../shared/contract';
import type { EvidenceKind, EvidenceSource, ReviewStatus } from '../../shared/dating';
import { CallFailure } from '../../shared/result';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import type { ActionLog } from '../history/action-log';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { EvidenceRow, EvidenceStore } from './evidence-store';
import { toEstimateView, toEvidenceItem } from './evidence-view';
import { manualEvidence } from './manual-constraint';

export { toEstimateView, toEvidenceItem } from './evidence-view';

const DECIDED: Record<ReviewStatus, string> = { accepted: 'Accepted', rejected: 'Rejected', pending: 'Reset' };
const SOURCE_NAME: Record<EvidenceSource, string> = {
  exif: 'EXIF',
  ocr: 'OCR',
  ai: 'AI',
  manual: 'manual',
  duplicate: 'duplicate',
  note: 'notes',
};

export interface BulkReview {
  photoIds: number[];
  source: EvidenceSource;
  kind?: EvidenceKind;
  /** Only findings in this state change (default: pending). */
  from: ReviewStatus;
  status: ReviewStatus;
  note?: string;
}

export class EvidenceService {
  constructor(
    private readonly db: LibraryDb,
    private readonly store: EvidenceStore,
    private readonly photos: PhotoRepository,
    private readonly ledger: AuditLedger,
    private readonly actions: ActionLog,
    private readonly onPhotoChanged: (id: number) => void,
  ) {}

  list(photoId: number, includeSuperseded: boolean): { items: EvidenceItem[]; estimate: EstimateView } {
    if (!this.photos.get(photoId)) throw new CallFailure('not_found', `There is no photo ${photoId}`);
    const rows = includeSuperseded ? this.store.history(photoId) : this.store.current(photoId);
    return { items: rows.map(toEvidenceItem), estimate: toEstimateView(this.store.recomputeView(photoId)) };
  }

  review(id: number, status: ReviewStatus, note: string | undefined) {
    return this.change(id, 'review', (row) => {
      if (row.superseded_at != null)
        throw new CallFailure('conflict', 'This finding was replaced by a later run; review the current one');
      this.store.setReview(id, status, note ?? null);
      const label =
        status === row.review_status ? `Changed the note on #${id}` : `${DECIDED[status]} #${id} (${SOURCE_NAME[row.source]})`;
      const revertNote = status === row.review_status ? 'The note is as it was' : `#${id} is ${row.review_status} again`;
      const audit = {
        event: 'evidence_reviewed',
        data: { evidenceId: id, source: row.source, from: row.review_status, to: status, note: note ?? null },
      };
      return { label, revertNote, audit };
    });
  }

  /** One action across many photos: e.g. accept every pending EXIF bound of a selection of scans. */
  reviewMany(q: BulkReview): { action: ActionSummary | null; changed: number; photos: number } {
    const rows = this.store.currentMatching(q.photoIds, q.source, q.kind ?? null, q.from);
    if (!rows.length) return { action: null, changed: 0, photos: 0 };
    const photoIds = [...new Set(rows.map((r) => r.photo_id))];
    const what = `${q.from} ${SOURCE_NAME[q.source]} ${q.kind ? `${q.kind}${rows.length === 1 ? '' : 's'}` : rows.length === 1 ? 'finding' : 'findings'}`;
    const { action } = this.db.immediate(() => {
      const recorded = this.actions.record(
        'review_many',
        (track) => {
          for (const r of rows) {
            track.evidence(r.id);
            this.store.setReview(r.id, q.status, q.note ?? null);
          }
          photoIds.forEach((p) => this.store.recompute(p));
        },
        () => ({
          label: `${DECIDED[q.status]} ${rows.length.toLocaleString('en-US')} ${what} on ${photoIds.length.toLocaleString('en-US')} photo${photoIds.length === 1 ? '' : 's'}`,
          revertNote: `${rows.length === 1 ? 'It is' : 'They are'} ${q.from} again`,
        }),
      );
      this.ledger.append([
        {
          event: 'evidence_reviewed_many',
          actor: 'user',
          data: {
            actionId: recorded.action?.id ?? null,
            evidenceIds: rows.map((r) => r.id),
            source: q.source,
            kind: q.kind ?? null,
            from: q.from,
            to: q.status,
            note: q.note ?? null,
          },
        },
      ]);
      return recorded;
    });
    photoIds.forEach(this.onPhotoChanged);
    return { action, changed: rows.length, photos: photoIds.length };
  }

  addManual(photoId: number, constraint: ManualConstraint, note: string) {
    if (!this.photos.get(photoId)) throw new CallFailure('not_found', `There is no photo ${photoId}`);
    const found = manualEvidence(constraint, note);
    const { id, estimate } = this.db.immediate(() => {
      const { result, action } = this.actions.record(
        'manual_add',
        (track) => {
          const id = this.store.add(photoId, 'manual', found, 'accepted');
          track.created(id);
          return id;
        },
        (id) => ({ label: `Added constraint #${id} (${found.summary})`, revertNote: 'It is removed (kept in the history)' }),
      );
      this.ledger.append([
        {
          event: 'manual_constraint_added',
          actor: 'user',
          photoId,
          data: { evidenceId: result, constraint, note, actionId: action?.id },
        },
      ]);
      return { id: result, estimate: this.store.recompute(photoId) };
    });
    this.onPhotoChanged(photoId);
    return { item: toEvidenceItem(this.store.get(id)!), estimate: toEstimateView(estimate) };
  }

  updateManual(id: number, constraint: ManualConstraint, note: string) {
    return this.change(id, 'manual_edit', (row) => {
      if (row.source !== 'manual') throw new CallFailure('conflict', 'Only manual constraints can be edited');
      const found = manualEvidence(constraint, note);
      this.store.replaceInterval(id, found);
      return {
        label: `Changed constraint #${id} to “${found.summary}”`,
        revertNote: `It reads “${row.summary}” again`,
        audit: { event: 'manual_constraint_edited', data: { evidenceId: id, constraint, note } },
      };
    });
  }

  removeManual(id: number) {
    const { estimate } = this.change(id, 'manual_remove', (row) => {
      if (row.source !== 'manual')
        throw new CallFailure('conflict', 'Only manual constraints can be removed; reject other evidence instead');
      this.store.supersede(id);
      return {
        label: `Deleted constraint #${id} (${row.summary})`,
        revertNote: 'It is back',
        audit: { event: 'manual_constraint_removed', data: { evidenceId: id } },
      };
    });
    return { estimate };
  }

  /** One action on one finding: `fn` changes it and says what it did, for the history and the ledger. */
  private change(
    id: number,
    kind: 'review' | 'manual_edit' | 'manual_remove',
    fn: (row: EvidenceRow) => { label: string; revertNote: string; audit: { event: string; data: Record<string, unknown> } },
  ): { item: EvidenceItem; estimate: EstimateView } {
    const row = this.store.get(id);
    if (!row) throw new CallFailure('not_found', `There is no evidence ${id}`);
    const estimate = this.db.immediate(() => {
      const { result, action } = this.actions.record(
        kind,
        (track) => {
          track.evidence(id);
          return fn(row);
        },
        (said) => said,
      );
      this.ledger.append([
        {
          event: result.audit.event,
          actor: 'user',
          photoId: row.photo_id,
          data: { ...result.audit.data, actionId: action?.id ?? null },
        },
      ]);
      return this.store.recompute(row.photo_id);
    });
    this.onPhotoChanged(row.photo_id);
    return { item: toEvidenceItem(this.store.get(id)!), estimate: toEstimateView(estimate) };
  }
}
