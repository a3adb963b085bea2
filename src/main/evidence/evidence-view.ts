/** Evidence rows and estimates as the contract shows them to the renderer. */
import type { EstimateView, EvidenceItem } from '../../shared/contract';
import { clueReason, decodePrecision, toDacs, toEdtf, type Estimate } from '../../shared/dating';
import { evidenceDetailsSchemas } from '../../shared/evidence-details';
import { toEvidenceInput, type EvidenceRow } from './evidence-store';

/** A row's details, checked against its source's schema; unreadable details are shown as absent. */
function readDetails(r: EvidenceRow): unknown {
  try {
    const parsed = evidenceDetailsSchemas[r.source].safeParse(r.details ? JSON.parse(r.details) : null);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function toEvidenceItem(r: EvidenceRow): EvidenceItem {
  const safe = <T>(f: () => T): T | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  const format = { approximate: r.kind === 'estimate', precision: decodePrecision(r.precision) };
  // The source and its details are checked together (the contract's union); the cast names that pairing.
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
    details: readDetails(r),
    jobId: r.job_id,
    attempt: r.attempt,
    reviewStatus: r.review_status,
    reviewNote: r.review_note,
    superseded: r.superseded_at != null,
    createdAt: r.created_at,
    edtf: safe(() => toEdtf(r.earliest, r.latest, format)),
    label: safe(() => toDacs(r.earliest, r.latest, format)),
    clue: r.superseded_at != null ? null : clueReason(toEvidenceInput(r)),
  } as EvidenceItem;
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
    // Estimates stored before clues were told apart have neither (a rebuild brings them).
    clueIds: e.clueIds ?? [],
    withClues: e.withClues ?? null,
  };
}
