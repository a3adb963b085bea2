/**
 * One photo in the grid: thumbnail (or a placeholder that says what state the photo is in: queued,
 * being read, waiting to retry, cancelled, failed and why), state badges and a caption.
 * The tile has no aria-label: its name is the text it shows (filename, date, badges, placeholder),
 * so what a screen reader says and what a voice-control user reads off the screen are the same.
 */
import { memo, useState } from 'react';
import { client } from '../../api/client';
import type { PhotoSummary } from '../../../../shared/contract';
import { estimateCaption } from '../../../../shared/estimate-caption';

interface Props {
  photo: PhotoSummary;
  index: number;
  total: number;
  selected: boolean;
  focused: boolean;
  onClick(index: number, e: React.MouseEvent): void;
  onOpen(id: number): void;
}

export const PhotoTile = memo(function PhotoTile({ photo: p, index, total, selected, focused, onClick, onOpen }: Props) {
  const caption = estimateCaption(p);
  const state = thumbState(p);
  return (
    <div
      id={`photo-tile-${p.id}`}
      role="option"
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={total}
      className={`photo-tile${selected ? ' selected' : ''}${focused ? ' focused' : ''}`}
      onClick={(e) => onClick(index, e)}
      onDoubleClick={() => onOpen(p.id)}
      data-testid="photo-tile"
      data-photo-id={p.id}
      data-status={p.metadataStatus}
      data-tile-state={state.kind}
    >
      {/* First in the DOM (the thumbnail is drawn above it): the tile's accessible name is its visible text, name first. */}
      <div className="tile-caption">
        <span className="tile-name" title={p.filename}>
          {p.filename}
        </span>
        <span className={`tile-date${p.estimateLabel ? '' : ' undated'}`}>{caption}</span>
      </div>
      <div className="tile-thumb">
        <Thumb photo={p} state={state} />
        {selected && (
          <span className="tile-check" aria-hidden="true">
            ✓
          </span>
        )}
        <span className="tile-badges">
          {p.missing && (
            <span
              className="tile-badge tile-badge-missing"
              title={`File not found at ${p.path}. Select it and choose Locate… to show Circa where it is now.`}
            >
              Missing
            </span>
          )}
          {p.metadataStatus === 'failed' && (
            <span className="tile-badge tile-badge-failed" title={p.metadataError ?? 'Reading the metadata failed'}>
              Failed
            </span>
          )}
        </span>
      </div>
    </div>
  );
});

export interface ThumbState {
  kind: 'preview' | 'queued' | 'reading' | 'retrying' | 'cancelled' | 'unread' | 'failed' | 'no-preview';
  /** What the placeholder says. */
  text: string;
  /** Why, in a sentence (shown under it and on hover). */
  why?: string;
}

/** What a tile says about its photo while there is no thumbnail to show. */
export function thumbState(p: PhotoSummary, now = Date.now()): ThumbState {
  if (p.metadataStatus === 'failed')
    return { kind: 'failed', text: 'Could not be read', why: p.metadataError ?? 'Reading its metadata failed.' };
  if (p.metadataStatus === 'ready')
    return p.thumbnailVersion ? { kind: 'preview', text: 'Preview unavailable' } : { kind: 'no-preview', text: 'No preview' };
  const job = p.metadataJob;
  const rerun = 'Select it and choose Re-run metadata to read it.';
  if (!job) return { kind: 'unread', text: 'Not read yet', why: `No job is reading it. ${rerun}` };
  switch (job.status) {
    case 'queued':
      return job.runAfter > now + 1000
        ? { kind: 'retrying', text: 'Waiting to retry', why: job.errorMessage ?? undefined }
        : { kind: 'queued', text: 'Queued', why: 'Waiting for a worker.' };
    case 'running':
    case 'success':
      return { kind: 'reading', text: 'Reading…' };
    case 'cancelled':
      return { kind: 'cancelled', text: 'Not read: cancelled', why: `Its metadata job was cancelled. ${rerun}` };
    case 'failed':
      return { kind: 'failed', text: 'Could not be read', why: job.errorMessage ?? undefined };
  }
}

function Thumb({ photo: p, state }: { photo: PhotoSummary; state: ThumbState }) {
  const [broken, setBroken] = useState<string | null>(null);
  const version = p.thumbnailVersion;
  if (version && broken !== version) {
    return (
      <img
        src={client.transport.mediaUrl('thumb', p.id, version)}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setBroken(version)}
        data-testid="photo-thumb"
      />
    );
  }
  return (
    <span className={`tile-placeholder tile-state-${state.kind}`} title={state.why} data-testid="tile-placeholder">
      <span className="tile-placeholder-text">{state.text}</span>
      {state.why && state.kind !== 'queued' && <span className="tile-placeholder-why">{state.why}</span>}
    </span>
  );
}

/** A tile whose page has not arrived yet: same shape, no content, no layout jump when it fills in. */
export function PendingTile() {
  return (
    <div className="photo-tile pending" aria-hidden="true">
      <div className="tile-thumb" />
      <div className="tile-caption">
        <span className="tile-bar" />
        <span className="tile-bar short" />
      </div>
    </div>
  );
}
