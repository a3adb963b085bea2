/**
 * What every export format says about how sure a date is, decided once here (issue 28 item 6):
 *  - a single standard date (XMP photoshop:DateCreated, dc:date) is written only from an estimate
 *    whose ends are all set by findings the archivist accepted — never from a pending or a
 *    clue-only estimate, which other programs would read as a fact;
 *  - each finding is one line that says its source, kind, interval, its EDTF as written (with
 *    its uncertainty marks: '1906-07-04?', '1906~', '1906-21'), review state and whether it is
 *    only a clue — the XMP sidecar's circa:Evidence and the CSV's evidence column alike;
 *  - an estimate that needs review says so in words.
 */
import type { ExportRecord } from './export-record';
import { CONFIDENCE_TERMS } from '../dating/confidence-terms';
import { weakClueTag } from '../dating/clue-words';

type Finding = ExportRecord['evidence'][number];

/** Whether the estimate may stand as the photo's date in fields other programs take for a fact. */
export function isFindingDate(r: ExportRecord): boolean {
  const e = r.estimate;
  if (e.status === 'estimated') return true;
  if (e.status !== 'needs_review') return false;
  const setters = [...e.earliestSetBy, ...e.latestSetBy];
  const accepted = new Set(r.evidence.filter((ev) => !ev.superseded && ev.reviewStatus === 'accepted').map((ev) => ev.id));
  return setters.length > 0 && setters.every((id) => accepted.has(id));
}

/** "yes: 2 findings await review" / "no" — for a reader who sees only this export. */
export function needsReviewText(r: ExportRecord): string {
  if (r.estimate.status !== 'needs_review') return 'no';
  const waiting = r.evidence.filter((ev) => !ev.superseded && ev.reviewStatus === 'pending').length;
  return `yes: ${waiting} finding${waiting === 1 ? '' : 's'} await${waiting === 1 ? 's' : ''} review`;
}

/**
 * One current finding in one line: "pending ai estimate 1850-01-01 – 1935-12-31 (EDTF
 * 1850/1935, evidence confidence 0.2, weak clue spanning 86 years, not a date): …". A clue is named as
 * on the photo screen and the grid (clue-words.ts). A bound is a bound: it states no confidence, and one
 * stated with a confidence (a file's save date) is said to be weak, as on the photo screen.
 */
export function findingLine(ev: Finding, clueIds: ReadonlySet<number>): string {
  const span = `${ev.earliest ?? '…'} – ${ev.latest ?? '…'}`;
  const clue = clueIds.has(ev.id);
  const notes = [
    ev.edtf ? `EDTF ${ev.edtf}` : null,
    // A weak bound that is a clue is called weak once, by its clue words.
    ev.confidence == null
      ? null
      : ev.kind !== 'bound'
        ? `${CONFIDENCE_TERMS.evidence.name} ${ev.confidence}`
        : clue
          ? null
          : 'weak',
    clue ? `${weakClueTag(findingYears(ev))}, not a date` : null,
  ].filter((n) => n !== null);
  return `${ev.reviewStatus} ${ev.source} ${ev.kind} ${span}${notes.length ? ` (${notes.join(', ')})` : ''}: ${ev.summary}`;
}

/** A finding's interval in years ('1850-01-01' → 1850). */
const findingYears = (ev: Finding) => ({
  earliestYear: ev.earliest ? Number(ev.earliest.slice(0, 4)) : null,
  latestYear: ev.latest ? Number(ev.latest.slice(0, 4)) : null,
});

/** The current findings, one line each. */
export function findingLines(r: ExportRecord): string[] {
  const clues = new Set(r.estimate.clueIds ?? []);
  return r.evidence.filter((ev) => !ev.superseded).map((ev) => findingLine(ev, clues));
}
