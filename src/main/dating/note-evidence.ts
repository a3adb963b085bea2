/**
 * The archivist's own notes on a photo as evidence (source "note"): every date written in them
 * and every named event or period ("V-E Day", "after the war") becomes a finding the estimate
 * uses, reviewable and rejectable like any other. They are read with the same readers as OCR text
 * and the "Dates read in the notes" panel (src/shared/dating, src/shared/dating/history), with the
 * library's numeric date order and the archivist's own history entries, and read again whenever
 * the notes change (photo-edits.ts).
 *
 * What the archivist typed is not misread print: a date is weighed at the reader's own confidence
 * in it, with no OCR discount. A date of the object's use (a postmark, "developed") and an open
 * range ("1906 -") are bounds; a named event bounds or dates as the catalogue says.
 */
import { describeEnd, describeStart, extractDates, toDacs, type FoundDate } from '../../shared/dating';
import type { ReadableEntry } from '../../shared/dating/history';
import { findHistoricalReferences } from '../../shared/dating/history';
import type { NumericDateOrder } from '../../shared/dating/notation-conventions';
import { encodePrecision } from '../../shared/dating/precision';
import type { EvidenceDetails } from '../../shared/evidence-details';
import type { NewEvidence } from '../evidence/evidence-store';
import type { SettingsStore } from '../settings/settings';
import { historyDetails, historyFinding } from './history-evidence';
import { USE_LABEL } from './ocr-evidence';
import { OwnHistoryEntries } from './own-history-entries';

/** Notes are short; a pasted finding aid is not read past this many findings of each kind. */
const MAX_FINDINGS = 10;

function fromDate(found: FoundDate): NewEvidence {
  const ends = found.ends ?? { earliest: found.precision, latest: found.precision };
  const details: EvidenceDetails['note'] = {
    text: found.text,
    reason: found.reason,
    edtf: found.edtf ?? null,
    use: found.use ?? null,
  };
  const quoted = `“${found.text}”`;
  if (found.use) {
    return {
      kind: 'bound',
      earliest: null,
      latest: found.latest,
      precision: encodePrecision({ earliest: null, latest: ends.latest }),
      confidence: null,
      summary: `${USE_LABEL[found.use.cue]} ${quoted} (notes): the photograph is not after ${describeEnd(found.latest, ends.latest)}`,
      details,
    };
  }
  if (ends.earliest === null || ends.latest === null) {
    const notAfter = ends.earliest === null;
    return {
      kind: 'bound',
      earliest: notAfter ? null : found.earliest,
      latest: notAfter ? found.latest : null,
      precision: encodePrecision(ends),
      confidence: null,
      summary: notAfter
        ? `Note reads ${quoted}: not after ${describeEnd(found.latest, ends.latest)}`
        : `Note reads ${quoted}: not before ${describeStart(found.earliest, ends.earliest)}`,
      details,
    };
  }
  return {
    kind: 'estimate',
    earliest: found.earliest,
    latest: found.latest,
    precision: encodePrecision(ends),
    confidence: found.confidence,
    summary: `Note reads ${quoted}: ${toDacs(found.earliest, found.latest, { approximate: found.approximate, precision: ends })}`,
    details,
  };
}

/** The findings in one text of notes. */
export function noteEvidence(
  notes: string,
  numericDateOrder: NumericDateOrder,
  entries: readonly ReadableEntry[],
): NewEvidence[] {
  if (!notes.trim()) return [];
  const seen = new Set<string>();
  const dates = extractDates(notes, { dateOrder: numericDateOrder })
    .map(fromDate)
    .filter((e) => {
      const key = `${e.kind}:${e.earliest}-${e.latest}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_FINDINGS);
  const history = findHistoricalReferences(notes, entries)
    .slice(0, MAX_FINDINGS)
    .map((r): NewEvidence => ({
      ...historyFinding(r, 'Note names', r.confidence ?? 0),
      details: { text: r.text, reason: r.reason, edtf: null, use: null, history: historyDetails(r) },
    }));
  return [...dates, ...history];
}

/** Reads notes as this library would: its numeric date order, the catalogue and the archivist's own entries. */
export function notesReader(settings: Pick<SettingsStore, 'getFlag' | 'setFlag' | 'get'>): (notes: string) => NewEvidence[] {
  const history = new OwnHistoryEntries(settings);
  return (notes) => noteEvidence(notes, settings.get().numericDateOrder, history.readable());
}
