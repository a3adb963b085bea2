/** What the file says about itself: technical facts, dates exactly as found, captions, and the path. */
import type { PhotoDetails } from '../../../../shared/contract';
import { formatBytes, formatTime } from '../../format';
import { ScanChoice } from './ScanChoice';

const ORIENTATION: Record<number, string> = {
  1: 'Normal',
  2: 'Mirrored',
  3: 'Rotated 180°',
  4: 'Mirrored, rotated 180°',
  5: 'Mirrored, rotated 90° anticlockwise',
  6: 'Rotated 90° clockwise',
  7: 'Mirrored, rotated 90° clockwise',
  8: 'Rotated 90° anticlockwise',
};

const DATE_FIELDS: [string, string][] = [
  ['dateTimeOriginal', 'Original (EXIF)'],
  ['createDate', 'Digitized (EXIF)'],
  ['modifyDate', 'Modified (EXIF)'],
  ['offsetTimeOriginal', 'Time zone offset'],
  ['xmpDateTimeOriginal', 'Original (XMP)'],
  ['xmpDateCreated', 'Date created (XMP)'],
  ['xmpCreateDate', 'Created (XMP)'],
  ['iptcDateCreated', 'Date created (IPTC)'],
  ['iptcTimeCreated', 'Time created (IPTC)'],
];

const TEXT_FIELDS: [string, string][] = [
  ['iptcTitle', 'Title (IPTC)'],
  ['xmpTitle', 'Title (XMP)'],
  ['description', 'Description'],
  ['xmpDescription', 'Description (XMP)'],
  ['iptcCaption', 'Caption (IPTC)'],
  ['userComment', 'Comment'],
  ['artist', 'Artist'],
  ['copyright', 'Copyright'],
  ['software', 'Software'],
  ['lensModel', 'Lens'],
];

const num = (n: number | null | undefined) => (n == null ? '?' : n.toLocaleString());

interface Props {
  photo: PhotoDetails;
  onReveal?: () => void;
  /** The archivist changed whether it is a scan (the message says what happened). */
  onScanChanged(message: string): void;
}

export function PhotoFacts({ photo: p, onReveal, onScanChanged }: Props) {
  const exif = p.exif ?? {};
  const text = (k: string): string | null => {
    const v = exif[k];
    return typeof v === 'string' && v.trim() ? v : null;
  };
  const camera = p.camera ?? ([text('make'), text('model')].filter(Boolean).join(' ') || null);
  const dates = DATE_FIELDS.map(([k, label]) => [label, text(k)] as const).filter(([, v]) => v);
  const texts = TEXT_FIELDS.map(([k, label]) => [label, text(k)] as const).filter(([, v]) => v);
  const keywords = Array.isArray(exif.keywords)
    ? (exif.keywords as unknown[]).filter((k): k is string => typeof k === 'string')
    : [];
  const lat = typeof exif.gpsLatitude === 'number' ? exif.gpsLatitude : null;
  const lon = typeof exif.gpsLongitude === 'number' ? exif.gpsLongitude : null;
  const read = p.metadataStatus === 'ready';
  const rotated = p.width != null && p.displayWidth != null && p.width !== p.displayWidth;

  return (
    <>
      <section className="side-section" aria-labelledby="facts-title">
        <h3 id="facts-title">Metadata</h3>
        <dl className="facts photo-facts" data-testid="photo-facts">
          <dt>Camera</dt>
          <dd data-testid="fact-camera">{camera ?? <span className="muted">{read ? 'Not recorded' : '—'}</span>}</dd>
          <dt>Dimensions</dt>
          <dd>
            {p.displayWidth != null ? (
              <>
                {num(p.displayWidth)} × {num(p.displayHeight)} px
                {rotated && (
                  <span className="muted">
                    {' '}
                    (stored {num(p.width)} × {num(p.height)})
                  </span>
                )}
              </>
            ) : (
              '—'
            )}
          </dd>
          <dt>Format</dt>
          <dd>{p.format ? p.format.toUpperCase() : '—'}</dd>
          <dt>File size</dt>
          <dd>{formatBytes(p.size)}</dd>
          <dt>Orientation</dt>
          <dd>{p.orientation != null ? `${ORIENTATION[p.orientation] ?? 'Unknown'} (${p.orientation})` : '—'}</dd>
          <ScanChoice photo={p} onChanged={onScanChanged} />
          <dt>SHA-256</dt>
          <dd>
            <span className="mono" title={p.sha256}>
              {p.sha256.slice(0, 16)}…
            </span>
          </dd>
          <dt>Imported</dt>
          <dd>{formatTime(p.importedAt)}</dd>
        </dl>
      </section>

      <section className="side-section" aria-labelledby="dates-title">
        <h3 id="dates-title">Dates as found</h3>
        {dates.length ? (
          <dl className="facts photo-facts" data-testid="photo-dates">
            {dates.map(([label, v]) => (
              <div key={label} className="fact-pair">
                <dt>{label}</dt>
                <dd className="mono">{v}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted small">{read ? 'The file’s metadata holds no dates.' : 'Not read yet.'}</p>
        )}
        {p.fileModifiedAt != null && (
          <dl className="facts photo-facts" data-testid="file-modified">
            <div className="fact-pair">
              <dt>File modified</dt>
              <dd>
                <span className="mono">{new Date(p.fileModifiedAt).toISOString().slice(0, 10)}</span>{' '}
                <span className="muted small">
                  (not used as evidence: copying or restoring a file changes this date, so it says nothing about the picture)
                </span>
              </dd>
            </div>
          </dl>
        )}
      </section>

      {(texts.length > 0 || keywords.length > 0 || (lat != null && lon != null)) && (
        <section className="side-section" aria-labelledby="texts-title">
          <h3 id="texts-title">Captions and other fields</h3>
          <dl className="facts photo-facts">
            {texts.map(([label, v]) => (
              <div key={label} className="fact-pair">
                <dt>{label}</dt>
                <dd className="prewrap">{v}</dd>
              </div>
            ))}
            {keywords.length > 0 && (
              <div className="fact-pair">
                <dt>Keywords</dt>
                <dd>{keywords.join(', ')}</dd>
              </div>
            )}
            {lat != null && lon != null && (
              <div className="fact-pair">
                <dt>GPS</dt>
                <dd className="mono">
                  {lat.toFixed(5)}, {lon.toFixed(5)}
                </dd>
              </div>
            )}
          </dl>
        </section>
      )}

      <section className="side-section" aria-labelledby="file-title">
        <h3 id="file-title">File</h3>
        <p className="photo-path mono" data-testid="photo-path">
          {p.path}
        </p>
        {p.missing && <p className="warn-text small">Not found at this path. Its jobs fail until the file is back.</p>}
        {onReveal && !p.missing && (
          <button onClick={onReveal} className="small-button">
            Reveal in folder
          </button>
        )}
      </section>
    </>
  );
}
