/**
 * The photo at full resolution, to zoom and pan: an archivist dates a photograph from its details
 * (a licence plate, a hem line, a poster). Main says how to show it (`photos.viewer`): the original
 * itself when the window can draw it whole, or its zoom view — tiles, of which only those on
 * screen are loaded (main cuts any not made yet when asked) — for TIFFs and large scans. The
 * thumbnail is drawn underneath at once, so there is always a picture while the rest arrives.
 * `page` (from 1) shows a later page of a multi-page scan, with that page's own thumbnail.
 *
 * Wheel or pinch zooms about the pointer, a drag pans, a double click toggles fit / actual size;
 * keys (also from anywhere on the photo screen): + and − zoom, 0 fits, 1 is actual size, arrows pan
 * when zoomed in (with the viewer focused).
 *
 * Overlays: `children` are drawn over the photo in its own pixels — the photo as displayed (EXIF
 * orientation applied) at full resolution, 0…displayWidth × 0…displayHeight — so a box placed with
 * left/top/width/height in those pixels stays on its spot at every zoom. They are scaled with the
 * photo; `--viewer-scale` (screen px per image px) lets a stroke keep its width:
 * `border: calc(2px / var(--viewer-scale)) solid`.
 */
import { forwardRef, useImperativeHandle, useRef, useState, type ReactNode } from 'react';
import { client } from '../../../api/client';
import { queryCache, useQuery } from '../../../api/hooks';
import type { PhotoDetails, Viewer } from '../../../../../shared/contract';
import { PagePicker } from './PagePicker';
import { TileLayer } from './TileLayer';
import { useZoomPan } from './useZoomPan';

export interface ViewerHandle {
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  actualSize(): void;
}

const STEP = 1.25;
const PAN_STEP = 0.2;

/** The photo's viewer; a multi-page file's with its page picker, each page viewed afresh (fitted). */
export const PhotoViewer = forwardRef<ViewerHandle, { photo: PhotoDetails; children?: ReactNode }>(function PhotoViewer(
  { photo, children },
  ref,
) {
  const [page, setPage] = useState(1);
  const picker = photo.pageCount > 1 ? <PagePicker photo={photo} page={page} onPage={setPage} /> : null;
  return (
    <PageViewer key={page} ref={ref} photo={photo} page={page} picker={picker}>
      {children}
    </PageViewer>
  );
});

interface PageProps {
  photo: PhotoDetails;
  /** Which page of a multi-page file (from 1). Overlays are of page 1 and are drawn there only. */
  page: number;
  /** Drawn over the viewer (the page picker). */
  picker: ReactNode;
  children?: ReactNode;
}

const PageViewer = forwardRef<ViewerHandle, PageProps>(function PageViewer({ photo: p, page, picker, children }, ref) {
  // While the zoom view is being made, the answer names the job making it: re-read when that job changes.
  const input = { id: p.id, page };
  const known = queryCache.snapshot('photos.viewer', input).data as Viewer | undefined;
  const making = known?.kind === 'unavailable' ? known.job?.id : undefined;
  const q = useQuery(
    'photos.viewer',
    input,
    [p.id, page, p.metadataStatus, p.missing, p.thumbnailVersion],
    making == null ? {} : { invalidateOn: ['jobs.changed'], about: { 'jobs.changed': [making] } },
  );
  const source = q.data;

  // A later page has its own size, known once main has read its header.
  const size =
    page === 1
      ? p.displayWidth && p.displayHeight
        ? { width: p.displayWidth, height: p.displayHeight }
        : null
      : source?.kind === 'tiles'
        ? { width: source.width, height: source.height }
        : null;
  const port = useRef<HTMLDivElement>(null);
  const zp = useZoomPan(port, size);
  const { view, viewport } = zp;
  useImperativeHandle(
    ref,
    () => ({ zoomIn: () => zp.zoomBy(STEP), zoomOut: () => zp.zoomBy(1 / STEP), fit: zp.fit, actualSize: () => zp.actualSize() }),
    [zp],
  );

  const thumb = !p.thumbnailVersion
    ? null
    : page === 1
      ? client.transport.mediaUrl('thumb', p.id, p.thumbnailVersion)
      : client.transport.mediaUrl('page-thumb', p.id, p.thumbnailVersion, { page });
  const [original, setOriginal] = useState<{ key: string; state: 'ok' | 'error' } | null>(null);
  const originalKey = source?.kind === 'image' ? `${p.id}:${source.version}` : '';
  const originalState = original?.key === originalKey ? original.state : 'loading';

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = (n: number) => n * PAN_STEP;
    const pans: Record<string, [number, number]> = {
      ArrowLeft: [step(viewport.width), 0],
      ArrowRight: [-step(viewport.width), 0],
      ArrowUp: [0, step(viewport.height)],
      ArrowDown: [0, -step(viewport.height)],
    };
    // Fitted, the arrows keep their photo-screen meaning (next / previous photo, next finding).
    if (pans[e.key] && !zp.fitted) {
      e.preventDefault();
      zp.pan(...pans[e.key]);
    }
  };

  const note = viewerNote(p, source, originalState);
  const percent = view ? Math.round(view.scale * 100) : null;
  return (
    <div className="viewer" data-testid="photo-viewer" data-kind={source?.kind ?? 'loading'} data-page={page}>
      <div
        ref={port}
        className={`viewer-port${zp.dragging ? ' dragging' : ''}`}
        tabIndex={0}
        role="img"
        aria-label={`${p.filename}${percent != null ? `, shown at ${percent}%` : ''}. Zoom with the wheel or + and −, drag to pan, 0 fits, 1 is actual size.`}
        onKeyDown={onKeyDown}
        {...zp.handlers}
        data-testid="viewer-port"
        data-scale={view?.scale}
        data-fitted={zp.fitted}
      >
        {view && size && (
          <div
            className={`viewer-stage${view.scale >= 2 ? ' viewer-pixels' : ''}`}
            style={
              {
                width: size.width,
                height: size.height,
                transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
                '--viewer-scale': view.scale,
              } as React.CSSProperties
            }
          >
            {thumb && <img className="viewer-layer" src={thumb} alt="" draggable={false} />}
            {source?.kind === 'image' && originalState !== 'error' && (
              <img
                className={`viewer-layer${originalState === 'ok' ? '' : ' viewer-loading'}`}
                src={client.transport.mediaUrl('original', p.id, source.version)}
                alt=""
                draggable={false}
                decoding="async"
                onLoad={() => setOriginal({ key: originalKey, state: 'ok' })}
                onError={() => setOriginal({ key: originalKey, state: 'error' })}
                data-testid="photo-original"
              />
            )}
            {source?.kind === 'tiles' && (
              <TileLayer photoId={p.id} page={page} version={source.version} pyramid={source} view={view} viewport={viewport} />
            )}
            <div className="viewer-overlay" data-testid="viewer-overlay">
              {page === 1 && children}
            </div>
          </div>
        )}
        {!size && (page === 1 || source?.kind === 'unavailable') && <NoImage photo={p} />}
      </div>
      {view && (
        <div className="viewer-tools" role="toolbar" aria-label="Zoom">
          <button onClick={() => zp.zoomBy(1 / STEP)} title="Zoom out (−)" aria-label="Zoom out">
            −
          </button>
          <span className="viewer-percent" data-testid="viewer-percent" aria-live="polite">
            {percent}%
          </span>
          <button onClick={() => zp.zoomBy(STEP)} title="Zoom in (+)" aria-label="Zoom in">
            +
          </button>
          <button onClick={zp.fit} aria-pressed={zp.fitted} title="Fit the photo in view (0)">
            Fit
          </button>
          <button onClick={() => zp.actualSize()} title="Actual size: one pixel of the photo per pixel of the screen (1)">
            1:1
          </button>
        </div>
      )}
      {picker}
      {note && (
        <p className={`stage-note${note.warn ? ' stage-note-warn' : ''}`} role="status" data-testid="viewer-note">
          {note.text}
          {note.job && (
            <>
              {' '}
              <a href={`#/jobs/${note.job}`}>See the job</a>
            </>
          )}
        </p>
      )}
    </div>
  );
});

/** What the note under the photo says, if anything: what is being shown while the full view is not. */
function viewerNote(
  p: PhotoDetails,
  source: Viewer | undefined,
  originalState: 'loading' | 'ok' | 'error',
): { text: string; warn?: boolean; job?: number } | null {
  if (!p.displayWidth) return null;
  if (p.missing && source?.kind !== 'tiles')
    return { text: `File missing.${p.thumbnailVersion ? ' Showing the preview made when it was read.' : ''}`, warn: true };
  if (!source) return null;
  if (source.kind === 'unavailable') return { text: source.reason, warn: true, job: source.job?.id };
  if (source.kind === 'image' && originalState === 'error')
    return { text: 'Showing the preview: the original cannot be displayed here.', warn: true };
  return null;
}

function NoImage({ photo: p }: { photo: PhotoDetails }) {
  return (
    <div className="stage-message" role="status">
      <p className="stage-message-title">{p.missing ? 'The file is missing' : 'No image to show'}</p>
      <p>
        {p.missing
          ? `Circa cannot find it at ${p.path}. It may have been moved, renamed or deleted.`
          : p.metadataStatus === 'pending'
            ? 'Circa is still reading this photo; the preview appears when it is done.'
            : p.metadataStatus === 'failed'
              ? 'The image could not be read (see the metadata job).'
              : 'Neither the original nor its preview could be loaded.'}
      </p>
    </div>
  );
}
