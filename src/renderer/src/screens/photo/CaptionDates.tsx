/**
 * "Dates read in the notes": each date found in the photo's notes (a caption copied from the
 * print, a catalogue record), as Circa read it — the text, its EDTF with uncertainty marks, its
 * precision, DACS wording, and the convention that decided the reading. Nothing becomes evidence
 * by itself: "Use as a constraint" adds it as the archivist's own constraint, and a numeric date
 * that reads both ways offers the other reading too.
 */
import { useState } from 'react';
import type { CaptionDate } from '../../../../shared/caption-dates';
import type { EstimateView, EvidenceItem, ManualConstraint } from '../../../../shared/contract';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';

interface Props {
  photoId: number;
  notes: string;
  onAdded(change: { item: EvidenceItem; estimate: EstimateView }, what: string): void;
}

const ORDER_WORDS = { 'month-first': 'month first', 'day-first': 'day first', undecided: 'undecided' } as const;

export function CaptionDates({ photoId, notes, onAdded }: Props) {
  const q = useQuery('dating.readCaption', { text: notes }, [notes]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const dates = q.data?.dates ?? [];
  if (!notes.trim() || (!dates.length && !q.error)) return null;

  const use = async (constraint: ManualConstraint, date: CaptionDate, edtf: string) => {
    setBusy(true);
    setError(undefined);
    const note = `From the notes: “${date.text}” read as ${edtf}`;
    const r = await client.call('evidence.addManual', { photoId, constraint, note: note.slice(0, 2000) });
    setBusy(false);
    if (r.ok) onAdded(r.value, `Added from the notes: ${r.value.item.summary}.`);
    else setError(r.error.message);
  };

  return (
    <section className="side-section caption-dates" aria-labelledby="caption-dates-title" data-testid="caption-dates">
      <div className="section-head">
        <h3 id="caption-dates-title">Dates read in the notes</h3>
        {q.data && <span className="muted small">numeric dates: {ORDER_WORDS[q.data.numericDateOrder]}</span>}
      </div>
      {q.error && <p className="error-text small">Could not read the notes: {q.error.message}</p>}
      {error && (
        <p className="error-text small" role="alert">
          Not added: {error}
        </p>
      )}
      <ul className="caption-date-list">
        {dates.map((d, i) => (
          <li key={`${d.index}-${i}`} className="caption-date" data-testid="caption-date">
            <div className="caption-date-head">
              <q className="caption-date-text">{d.text}</q>
              <span className="caption-date-dacs">{d.dacs}</span>
            </div>
            <dl className="caption-date-facts">
              <dt>EDTF</dt>
              <dd className="mono" data-testid="caption-date-edtf">
                {d.edtf}
                {d.set && d.set !== d.edtf && <span className="muted"> (one of {d.set})</span>}
              </dd>
              <dt>Precision</dt>
              <dd data-testid="caption-date-precision">{d.precision.replace('/', ' to ')}</dd>
              {d.convention && (
                <>
                  <dt>Convention</dt>
                  <dd>{d.convention}</dd>
                </>
              )}
              {d.use && (
                <>
                  <dt>Dates</dt>
                  <dd>the object’s use (“{d.use}”), not the picture</dd>
                </>
              )}
            </dl>
            <p className="muted small caption-date-reason">{d.reason}</p>
            <div className="caption-date-actions">
              <button type="button" disabled={busy} onClick={() => void use(d.constraint, d, d.edtf)}>
                Use as a constraint
              </button>
              {d.otherReading && (
                <button
                  type="button"
                  disabled={busy}
                  title={`Read ${d.otherReading.reading} instead`}
                  onClick={() => void use(d.otherReading!.constraint, d, d.otherReading!.edtf)}
                >
                  Use the other reading ({d.otherReading.reading})
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
