/**
 * What OCR read on this photo, line by line with Tesseract's confidence — shown whether or not a
 * date was found in it, so the archivist can read what the machine read and judge it. Selecting a
 * line draws its box over the image, so a misreading can be checked against the writing itself.
 *
 * `useOcrReading` owns the selection and hands the photo screen two pieces: the panel for the side
 * and the box for the image stage.
 */
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import type { OcrReading, PhotoDetails } from '../../../../shared/contract';
import { CONFIDENCE_TERMS } from '../../../../shared/dating/confidence-terms';

type Line = OcrReading['lines'][number];

function confidenceClass(c: number): string {
  return c >= 80 ? 'ocr-conf-high' : c >= 60 ? 'ocr-conf-mid' : 'ocr-conf-low';
}

const pct = (c: number) => `${Math.round(c)} %`;

export function useOcrReading(photo: PhotoDetails | undefined): { panel: ReactNode; overlay: ReactNode } {
  const reading = photo?.ocr ?? null;
  const [selected, setSelected] = useState<number | null>(null);
  // A new photo or a new reading: the old selection means nothing any more.
  useEffect(() => setSelected(null), [photo?.id, reading?.readAt]);
  const line = reading && selected !== null ? reading.lines[selected] : undefined;
  return {
    panel: <OcrReadingPanel reading={reading} selected={selected} onSelect={setSelected} />,
    overlay: reading && line ? <OcrLineBox reading={reading} line={line} /> : null,
  };
}

export function OcrReadingPanel({
  reading,
  selected,
  onSelect,
}: {
  reading: OcrReading | null;
  selected: number | null;
  onSelect(index: number | null): void;
}) {
  return (
    <section className="ocr-reading" aria-labelledby="ocr-reading-title" data-testid="ocr-reading">
      <h3 id="ocr-reading-title">Text read</h3>
      {!reading ? (
        <p className="muted small">Not read yet: Re-run OCR reads the writing on this photo.</p>
      ) : !reading.lines.length ? (
        <p className="muted small" data-testid="ocr-nothing">
          OCR found no text on this photo ({reading.method}).
        </p>
      ) : (
        <>
          <p className="muted small ocr-summary">
            {reading.lines.length} line{reading.lines.length === 1 ? '' : 's'},{' '}
            <span title={CONFIDENCE_TERMS.line.definition}>mean {CONFIDENCE_TERMS.line.name}</span>{' '}
            <span className={confidenceClass(reading.confidence)}>{pct(reading.confidence)}</span> · read {reading.method} ·{' '}
            {new Date(reading.readAt).toLocaleString()}
          </p>
          <ol className="ocr-lines" aria-label={`Lines read, each with its ${CONFIDENCE_TERMS.line.name}`}>
            {reading.lines.map((l, i) => (
              <li key={i}>
                <button
                  type="button"
                  className={`ocr-line${selected === i ? ' selected' : ''}`}
                  aria-pressed={selected === i}
                  data-testid="ocr-line"
                  title={selected === i ? 'Hide where this line was read' : 'Show where this line was read on the image'}
                  onClick={() => onSelect(selected === i ? null : i)}
                >
                  <span className="ocr-line-text">{l.text}</span>
                  <span
                    className={`ocr-conf ${confidenceClass(l.confidence)}`}
                    title={`${CONFIDENCE_TERMS.line.name}: ${CONFIDENCE_TERMS.line.definition}`}
                  >
                    {pct(l.confidence)}
                  </span>
                </button>
              </li>
            ))}
          </ol>
          <p className="muted small">Select a line to see where on the image it was read.</p>
        </>
      )}
    </section>
  );
}

/**
 * The selected line's box over the photo, drawn in the viewer's overlay (which has the photo's
 * displayed size at every zoom), so percentages of the reading's size land on the right pixels.
 */
export function OcrLineBox({ reading, line }: { reading: OcrReading; line: Line }) {
  const { x0, y0, x1, y1 } = line.bbox;
  const box: CSSProperties = {
    left: `${(100 * x0) / reading.width}%`,
    top: `${(100 * y0) / reading.height}%`,
    width: `${(100 * Math.max(1, x1 - x0)) / reading.width}%`,
    height: `${(100 * Math.max(1, y1 - y0)) / reading.height}%`,
  };
  return <div className="ocr-box" style={box} aria-hidden="true" data-testid="ocr-box" />;
}
