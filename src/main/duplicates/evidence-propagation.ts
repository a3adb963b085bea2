/**
 * Evidence travels between confirmed copies of a photograph. In a confirmed group, every accepted
 * bound or estimate of one copy is proposed to each other copy as *pending* evidence of source
 * `duplicate`, naming the copy and the finding it comes from; it is reviewed like any other.
 *
 * Proposals are kept in step with what they come from by one rule, applied to a photo whenever
 * its group or its group-mates' evidence changes (`sync`): the photo's current `duplicate`
 * findings must be exactly one per accepted, current, non-duplicate finding of each other member,
 * with the same dates. What is missing is proposed; what no longer has a reason — the original
 * was rejected, reset or replaced, its dates were edited, the photos are no longer confirmed as
 * one — is withdrawn (superseded: kept in the history, out of the estimate). An edited original
 * is withdrawn and proposed again, so the new dates are reviewed. Findings that came from a
 * duplicate never travel further. Every proposal and withdrawal is audited.
 */
import type { AuditEntry, AuditLedger } from '../audit/ledger';
import type { EvidenceRow, EvidenceStore, NewEvidence } from '../evidence/evidence-store';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { DuplicateStore } from './duplicate-store';

/** What a proposal records about where it comes from (in the evidence row's details). */
export interface DuplicateOrigin {
  photoId: number;
  evidenceId: number;
  source: string;
  filename: string;
  summary: string;
}

interface Proposal {
  origin: EvidenceRow;
  from: { id: number; filename: string };
}

const signature = (r: Pick<EvidenceRow, 'kind' | 'earliest' | 'latest' | 'confidence' | 'precision'>) =>
  `${r.kind}|${r.earliest}|${r.latest}|${r.confidence}|${r.precision}`;

export function originOf(row: EvidenceRow): DuplicateOrigin | null {
  if (row.source !== 'duplicate' || !row.details) return null;
  try {
    const o = (JSON.parse(row.details) as { origin?: DuplicateOrigin }).origin;
    return o && Number.isInteger(o.evidenceId) && Number.isInteger(o.photoId) ? o : null;
  } catch {
    return null;
  }
}

export class EvidencePropagation {
  /** Set while a sync writes evidence: the store's change hook must not start another. */
  private syncing = false;

  constructor(
    private readonly evidence: EvidenceStore,
    private readonly duplicates: DuplicateStore,
    private readonly photos: PhotoRepository,
    private readonly ledger: AuditLedger,
    private readonly onPhotosChanged: (ids: number[]) => void,
  ) {
    evidence.onChange((photoId) => this.evidenceChanged(photoId));
  }

  /** In tx. A photo's evidence changed: its group-mates' proposals follow. */
  private evidenceChanged(photoId: number): void {
    if (this.syncing) return;
    const group = this.duplicates.groupOf(photoId);
    if (group === undefined) return;
    this.sync(
      this.duplicates.members(group).filter((id) => id !== photoId),
      'the evidence of a copy changed',
    );
  }

  /**
   * In tx. Brings the proposals of these photos in line with their groups as they are now (a photo
   * in no group keeps none). `cause` goes into the audit entries. Returns the photos that changed.
   */
  sync(photoIds: Iterable<number>, cause: string): number[] {
    if (this.syncing) return [];
    this.syncing = true;
    const changed: number[] = [];
    const entries: AuditEntry[] = [];
    try {
      for (const photoId of new Set(photoIds)) {
        if (this.syncPhoto(photoId, cause, entries)) changed.push(photoId);
      }
      this.ledger.append(entries);
    } finally {
      this.syncing = false;
    }
    if (changed.length) this.onPhotosChanged(changed);
    return changed;
  }

  private syncPhoto(photoId: number, cause: string, audit: AuditEntry[]): boolean {
    const group = this.duplicates.groupOf(photoId);
    const wanted = new Map<number, Proposal>();
    if (group !== undefined) {
      for (const other of this.duplicates.members(group)) {
        if (other === photoId) continue;
        const filename = this.photos.get(other)?.filename ?? `photo ${other}`;
        for (const row of this.evidence.current(other)) {
          if (row.review_status === 'accepted' && row.source !== 'duplicate') {
            wanted.set(row.id, { origin: row, from: { id: other, filename } });
          }
        }
      }
    }
    let changed = false;
    for (const row of this.evidence.current(photoId)) {
      if (row.source !== 'duplicate') continue;
      const origin = originOf(row);
      const want = origin ? wanted.get(origin.evidenceId) : undefined;
      if (want && signature(want.origin) === signature(row)) {
        wanted.delete(origin!.evidenceId);
        continue;
      }
      this.evidence.supersede(row.id);
      changed = true;
      audit.push({
        event: 'duplicate_evidence_withdrawn',
        actor: 'system',
        photoId,
        data: { evidenceId: row.id, originEvidenceId: origin?.evidenceId ?? null, reason: this.why(row, origin, want, cause) },
      });
    }
    for (const { origin, from } of wanted.values()) {
      const id = this.evidence.add(photoId, 'duplicate', proposal(origin, from, group!));
      changed = true;
      audit.push({
        event: 'duplicate_evidence_proposed',
        actor: 'system',
        photoId,
        data: { evidenceId: id, originEvidenceId: origin.id, originPhotoId: from.id, groupId: group, cause },
      });
    }
    // add() recomputed after each proposal; withdrawals alone still need it.
    if (changed) this.evidence.recompute(photoId);
    return changed;
  }

  private why(row: EvidenceRow, origin: DuplicateOrigin | null, want: Proposal | undefined, cause: string): string {
    if (want) return 'the original finding’s dates changed; proposed again';
    if (!origin) return 'it does not name the finding it came from';
    if (this.duplicates.groupOf(row.photo_id) === undefined)
      return `the copies are no longer confirmed as one photograph (${cause})`;
    const original = this.evidence.get(origin.evidenceId);
    if (!original || original.superseded_at != null) return 'the original finding was replaced or removed';
    if (original.review_status === 'rejected') return 'the original finding was rejected';
    if (original.review_status === 'pending') return 'the original finding is no longer accepted';
    return `the photo it came from is no longer in this group (${cause})`;
  }
}

function proposal(origin: EvidenceRow, from: { id: number; filename: string }, groupId: number): NewEvidence {
  const details: { origin: DuplicateOrigin; groupId: number } = {
    origin: { photoId: from.id, evidenceId: origin.id, source: origin.source, filename: from.filename, summary: origin.summary },
    groupId,
  };
  return {
    kind: origin.kind,
    earliest: origin.earliest,
    latest: origin.latest,
    precision: origin.precision,
    confidence: origin.confidence,
    summary: `From the copy “${from.filename}”: ${origin.summary}`,
    details,
  };
}
