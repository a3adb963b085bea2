/**
 * The pages of a multi-page scan (a print's front and back, an album leaf's pages), drawn over the
 * viewer's lower edge: "Page 2 of 3" and a small picture of each page to choose it by. A later
 * page's picture is cut from the original by main the first time it is asked for, and only the
 * pictures scrolled into the strip are asked for.
 */
import { client } from '../../../api/client';
import type { PhotoDetails } from '../../../../../shared/contract';

interface Props {
  photo: PhotoDetails;
  page: number;
  onPage(page: number): void;
}

export function PagePicker({ photo: p, page, onPage }: Props) {
  const pages = Array.from({ length: p.pageCount }, (_, i) => i + 1);
  const picture = (n: number) =>
    !p.thumbnailVersion
      ? null
      : n === 1
        ? client.transport.mediaUrl('thumb', p.id, p.thumbnailVersion)
        : client.transport.mediaUrl('page-thumb', p.id, p.thumbnailVersion, { page: n });
  return (
    <nav className="viewer-pages" aria-label="Pages of this file" data-testid="page-picker">
      <span className="viewer-pages-label" aria-live="polite" data-testid="page-label">
        Page {page} of {p.pageCount}
      </span>
      <div className="viewer-pages-strip">
        {pages.map((n) => {
          const src = picture(n);
          return (
            <button
              key={n}
              className="viewer-page"
              aria-pressed={n === page}
              aria-label={`Page ${n}`}
              title={`Show page ${n} of ${p.pageCount}`}
              onClick={() => onPage(n)}
            >
              {src && <img src={src} alt="" loading="lazy" draggable={false} />}
              <span className="viewer-page-number">{n}</span>
            </button>
          );
        })}
      </div>
    </nav>
  );
}
