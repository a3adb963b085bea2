/**
 * The archivist's edits to a photo itself: its notes, and whether it is a scan. Each is one audited
 * action in the undo history (action-log.ts). Editing the notes reads them again at once: the dates
 * and named events in them are the photo's "note" findings (src/main/dating/note-evidence.ts), and
 * undoing the edit puts the earlier findings back. Changing whether a photo is a scan re-reads what its
 * EXIF dates mean at once, from the metadata already stored: the earlier EXIF findings go to the
 * history (even reviewed ones: their premise changed) and the new ones wait for review.
 */
import type { ActionSummary, ScanOverride } from '../../shared/contract';
import { embeddedMetadataSchema } from '../../shared/jobs/outputs/photo-metadata';
import { CallFailure } from '../../shared/result';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import type { EvidenceStore, NewEvidence } from '../evidence/evidence-store';
import type { ActionLog } from '../history/action-log';
import { decideScan, exifDateEvidence } from './exif-evidence';
import type { PhotoRepository, PhotoRow } from '../catalogue/photo-repository';

const OVERRIDE_LABEL: Record<ScanOverride | 'none', string> = {
  scan: 'a scan',
  original: 'a camera original',
  none: 'as its import decides',
};

export class PhotoEdits {
  constructor(
    private readonly db: LibraryDb,
    private readonly photos: PhotoRepository,
    private readonly evidence: EvidenceStore,
    private readonly ledger: AuditLedger,
    private readonly actions: ActionLog,
    private readonly onPhotoChanged: (id: number) => void,
    /** The findings in a text of notes, read as this library reads them. */
    private readonly readNotes: (notes: string) => NewEvidence[],
  ) {}

  setNotes(id: number, notes: string): { notes: string; action: ActionSummary | null } {
    const before = this.existing(id).notes;
    const { action } = this.db.immediate(() => {
      const recorded = this.actions.record(
        'notes',
        (track) => {
          track.photo(id);
          this.photos.setNotes(id, notes);
          this.evidence.rereadSource(id, 'note', this.readNotes(notes), track);
        },
        () => ({ label: 'Edited the notes', revertNote: 'The notes are as they were' }),
      );
      if (recorded.action)
        this.ledger.append([
          {
            event: 'photo_notes_edited',
            actor: 'user',
            photoId: id,
            data: { actionId: recorded.action.id, from: before.length, to: notes.length },
          },
        ]);
      return recorded;
    });
    this.onPhotoChanged(id);
    return { notes, action };
  }

  setScanOverride(id: number, override: ScanOverride | null) {
    const photo = this.existing(id);
    const { action } = this.db.immediate(() => {
      const recorded = this.actions.record(
        'scan_override',
        (track) => {
          track.photo(id);
          const decision = this.rederive(photo, override, track);
          this.photos.setScan(id, override, decision);
        },
        () => ({
          label: `Marked photo ${id} as ${OVERRIDE_LABEL[override ?? 'none']}`,
          revertNote: `It is ${OVERRIDE_LABEL[photo.scan_override ?? 'none']} again`,
        }),
      );
      if (recorded.action)
        this.ledger.append([
          {
            event: 'scan_override_set',
            actor: 'user',
            photoId: id,
            data: { actionId: recorded.action.id, from: photo.scan_override, to: override },
          },
        ]);
      return recorded;
    });
    this.onPhotoChanged(id);
    const after = this.photos.get(id)!;
    return {
      isScan: after.is_scan == null ? null : !!after.is_scan,
      scanReason: after.scan_reason,
      scanOverride: after.scan_override,
      action,
    };
  }

  /** In tx. The scan decision under the new override, and the EXIF evidence it gives (when the metadata was read). */
  private rederive(
    photo: PhotoRow,
    override: ScanOverride | null,
    track: { evidence(id: number): void; created(id: number): void },
  ) {
    const parsed = photo.exif ? embeddedMetadataSchema.safeParse(JSON.parse(photo.exif)) : null;
    const exif = parsed?.success ? parsed.data : null;
    const decision = decideScan({
      policy: photo.scan_policy,
      override,
      scanner: { isScan: photo.scanner_reason != null, reason: photo.scanner_reason },
      exif: exif ?? { make: null, model: null },
    });
    if (!exif) return decision;
    const current = this.evidence.current(photo.id).filter((r) => r.source === 'exif');
    current.forEach((r) => track.evidence(r.id));
    const ids = this.evidence.replaceSource(photo.id, 'exif', exifDateEvidence(exif, decision));
    ids.forEach((newId) => track.created(newId));
    return decision;
  }

  private existing(id: number): PhotoRow {
    const photo = this.photos.get(id);
    if (!photo) throw new CallFailure('not_found', `There is no photo ${id}`);
    return photo;
  }
}
