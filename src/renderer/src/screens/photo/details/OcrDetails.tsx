/** A date read in the photo: the line it was on, the date text, how clearly it was read, and how it was understood. */
import type { EvidenceDetails } from '../../../../../shared/contract';
import { CONFIDENCE_TERMS } from '../../../../../shared/dating/confidence-terms';

export const USE_LABEL: Record<NonNullable<EvidenceDetails['ocr']['use']>['cue'], string> = {
  postmark: 'a postmark',
  processing: 'a processing stamp',
  printing: 'a printing date',
  receipt: 'a “received” note',
  copyright: 'a copyright line',
  accession: 'an accession record',
  gift: 'a gift record',
  digitisation: 'a scan or digitisation date',
};

const READING_LABEL: Record<NonNullable<EvidenceDetails['ocr']['history']>['reading'], string> = {
  dates: 'dates the picture',
  between: 'bounds the picture to its span',
  not_before: 'the picture is not before it',
  not_after: 'the picture is not after it',
};

/** Where a reading of history came from: the entry, whose it is, and the source to check. */
export function HistorySource({ history: h }: { history: NonNullable<EvidenceDetails['ocr']['history']> }) {
  return (
    <>
      <dt>Names</dt>
      <dd data-testid="history-entry">
        {h.name} ({READING_LABEL[h.reading]}; {h.origin === 'own' ? 'your own entry' : 'Circa’s catalogue'})
      </dd>
      <dt>Source</dt>
      <dd data-testid="history-source">
        {h.source.url ? (
          <a href={h.source.url} target="_blank" rel="noreferrer">
            {h.source.work}, “{h.source.title}”
          </a>
        ) : (
          <>
            {h.source.work}, “{h.source.title}”
          </>
        )}
      </dd>
      {h.note && (
        <>
          <dt>Note</dt>
          <dd>{h.note}</dd>
        </>
      )}
    </>
  );
}

export function OcrDetails({ details: d }: { details: EvidenceDetails['ocr'] }) {
  return (
    <dl className="ev-details-list">
      {d.line.trim() && (
        <>
          <dt>Line read</dt>
          <dd className="ev-quote">{d.line}</dd>
        </>
      )}
      <dt>Date text</dt>
      <dd>“{d.text}”</dd>
      {d.use && (
        <>
          <dt>Dates</dt>
          <dd data-testid="ocr-use">
            the object’s use, not the picture: “{d.use.word}” marks {USE_LABEL[d.use.cue]}, so the picture is no later
          </dd>
        </>
      )}
      {d.history && <HistorySource history={d.history} />}
      <dt title={CONFIDENCE_TERMS.line.definition}>{CONFIDENCE_TERMS.line.name.replace(/^./, (c) => c.toUpperCase())}</dt>
      <dd data-testid="ocr-line-confidence">{Math.round(d.lineConfidence ?? d.ocrConfidence)}%</dd>
      {d.captureConflict && (
        <>
          <dt>Conflict</dt>
          <dd data-testid="ocr-capture-conflict">
            {d.captureConflict.years} years from the camera’s own date (EXIF {d.captureConflict.field})
          </dd>
        </>
      )}
      {d.reason.trim() && (
        <>
          <dt>Reading</dt>
          <dd>{d.reason}</dd>
        </>
      )}
    </dl>
  );
}
