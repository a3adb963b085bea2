/**
 * The photo itself, contained on a dark neutral backdrop. The thumbnail shows at once and the
 * original replaces it when it has loaded; if the original cannot be shown (moved file, a TIFF the
 * browser cannot draw) the thumbnail stays, with a note saying so.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import type { PhotoDetails } from '../../../../shared/contract';

type Load = 'loading' | 'ok' | 'error';

export function PhotoImage({ photo: p, overlay }: { photo: PhotoDetails; overlay?: React.ReactNode }) {
  const thumb = p.thumbnailVersion ? client.transport.mediaUrl('thumb', p.id, p.thumbnailVersion) : null;
  const original = p.missing ? null : client.transport.mediaUrl('original', p.id, p.sha256.slice(0, 12));
  const [orig, setOrig] = useState<Load>(original ? 'loading' : 'error');
  const [th, setTh] = useState<Load>(thumb ? 'loading' : 'error');

  const showThumb = thumb && th !== 'error' && orig !== 'ok';
  const nothing = orig === 'error' && th === 'error';
  let note: string | null = null;
  if (p.missing) note = `File missing.${thumb && th !== 'error' ? ' Showing the preview made when it was read.' : ''}`;
  else if (orig === 'error' && th === 'ok') note = 'Showing the preview: the original cannot be displayed here.';

  return (
    <div
      className="photo-stage"
      data-testid="photo-stage"
      style={
        p.displayWidth && p.displayHeight
          ? ({ '--photo-w': `${p.displayWidth}px`, '--photo-h': `${p.displayHeight}px` } as React.CSSProperties)
          : undefined
      }
    >
      {showThumb && (
        <img
          className="stage-img"
          src={thumb}
          alt={orig === 'error' ? p.filename : ''}
          onLoad={() => setTh('ok')}
          onError={() => setTh('error')}
        />
      )}
      {original && orig !== 'error' && (
        <img
          className={`stage-img${orig === 'ok' ? '' : ' stage-img-loading'}`}
          src={original}
          alt={p.filename}
          decoding="async"
          onLoad={() => setOrig('ok')}
          onError={() => setOrig('error')}
          data-testid="photo-original"
        />
      )}
      {!nothing && overlay}
      {nothing && (
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
      )}
      {note && !nothing && (
        <p className={`stage-note${p.missing ? ' stage-note-warn' : ''}`} role="status">
          {note}
        </p>
      )}
    </div>
  );
}
