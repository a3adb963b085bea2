/** One photo in the grid: thumbnail (or an honest placeholder), state badges and a caption. */
import { memo, useState } from 'react';
import { client } from '../../api/client';
import type { PhotoSummary } from '../../../../shared/contract';

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
  const caption = p.estimateLabel ?? 'undated';
  return (
    <div
      id={`photo-tile-${p.id}`}
      role="option"
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-label={`${p.filename}, ${caption}${p.missing ? ', file missing' : ''}${p.metadataStatus === 'failed' ? ', metadata failed' : ''}`}
      className={`photo-tile${selected ? ' selected' : ''}${focused ? ' focused' : ''}`}
      onClick={(e) => onClick(index, e)}
      onDoubleClick={() => onOpen(p.id)}
      data-testid="photo-tile"
      data-photo-id={p.id}
      data-status={p.metadataStatus}
    >
      <div className="tile-thumb">
        <Thumb photo={p} />
        {selected && (
          <span className="tile-check" aria-hidden="true">
            ✓
          </span>
        )}
        <span className="tile-badges">
          {p.missing && (
            <span className="tile-badge tile-badge-missing" title={`File not found at ${p.path}`}>
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
      <div className="tile-caption">
        <span className="tile-name" title={p.filename}>
          {p.filename}
        </span>
        <span className={`tile-date${p.estimateLabel ? '' : ' undated'}`}>{caption}</span>
      </div>
    </div>
  );
});

function Thumb({ photo: p }: { photo: PhotoSummary }) {
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
  const text =
    p.metadataStatus === 'pending'
      ? 'Reading…'
      : p.metadataStatus === 'failed'
        ? 'No preview'
        : version
          ? 'Preview unavailable'
          : 'No preview';
  return <span className={`tile-placeholder-text${p.metadataStatus === 'pending' ? ' reading' : ''}`}>{text}</span>;
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
