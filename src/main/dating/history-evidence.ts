/**
 * History named in OCR text as evidence (src/shared/dating/history): an event named plainly is an
 * OCR estimate over its interval, weighed like any date read by OCR; "after the war", "between the
 * wars" and a commemoration without its year are bounds. Each item's details carry the entry, its
 * source and the catalogue edition, so the photo screen shows where the reading came from and the
 * archivist can reject it like any other finding.
 */
import { describeEnd, describeStart, toDacs } from '../../shared/dating';
import {
  displayName,
  findHistoricalReferences,
  HISTORY_CATALOGUE_VERSION,
  sameWords,
  type HistoricalReading,
  type ReadableEntry,
} from '../../shared/dating/history';
import { encodePrecision } from '../../shared/dating/precision';
import type { EvidenceDetails } from '../../shared/evidence-details';
import type { NewEvidence } from '../evidence/evidence-store';
import { ocrEvidenceConfidence } from '../../shared/dating/confidence-terms';

const MAX_READINGS = 10;

function saysOf(r: HistoricalReading): string {
  const { earliest, latest, precision } = r;
  if (r.kind === 'dates') return toDacs(earliest, latest, { precision });
  if (r.kind === 'not_before') return `not before ${describeStart(earliest!, precision.earliest)}`;
  if (r.kind === 'not_after') return `not after ${describeEnd(latest!, precision.latest)}`;
  return `between ${describeStart(earliest!, precision.earliest)} and ${describeEnd(latest!, precision.latest)}`;
}

/** The `history` part of a finding's details (OCR or notes). */
export function historyDetails(r: HistoricalReading): NonNullable<EvidenceDetails['ocr']['history']> {
  return {
    entryId: r.entry.id,
    name: displayName(r.entry),
    origin: r.origin,
    reading: r.kind,
    source: r.entry.source,
    ...(r.entry.note ? { note: r.entry.note } : {}),
    ...(r.origin === 'catalogue' ? { catalogueVersion: HISTORY_CATALOGUE_VERSION } : {}),
  };
}

/**
 * What a reading of history proposes, as any text source states it: an estimate over the event
 * when it dates the picture (at `confidence`), else a bound. `says` opens the summary ("Text names").
 */
export function historyFinding(r: HistoricalReading, says: string, confidence: number): Omit<NewEvidence, 'details'> {
  const name = displayName(r.entry);
  const named = `${says} “${r.text}”${sameWords(r.text, name) ? '' : ` (${name})`}`;
  return {
    kind: r.kind === 'dates' ? 'estimate' : 'bound',
    earliest: r.earliest,
    latest: r.latest,
    precision: encodePrecision(r.precision),
    confidence: r.kind === 'dates' ? confidence : null,
    summary: `${named}: ${saysOf(r)}`,
  };
}

export function historyEvidenceFromText(
  text: string,
  entries: readonly ReadableEntry[],
  ocr: { confidence: number; lines: readonly { text: string }[] },
): NewEvidence[] {
  return findHistoricalReferences(text, entries)
    .slice(0, MAX_READINGS)
    .map((r) => {
      const line = ocr.lines.find((l) => l.text.includes(r.text))?.text ?? r.text;
      const details: EvidenceDetails['ocr'] = {
        text: r.text,
        line,
        reason: r.reason,
        ocrConfidence: Math.round(ocr.confidence),
        use: null,
        history: historyDetails(r),
      };
      return { ...historyFinding(r, 'Text names', ocrEvidenceConfidence(r.confidence ?? 0, ocr.confidence)), details };
    });
}
