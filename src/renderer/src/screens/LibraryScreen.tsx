/**
 * Library: the virtualised grid of every photo, with sort, filter (estimate status, year range),
 * full-text search (filenames, notes and text read in photos), multi-select and bulk re-runs,
 * review mode, the import panel, and (in Electron) drag-and-drop import.
 * It stays mounted, hidden, while a photo is open, so coming back lands where the archivist was.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { client } from '../api/client';
import { navigate } from '../router';
import { formatCount, plural } from '../format';
import {
  FILTER_LABEL,
  SORT_LABEL,
  YEAR_MODE_HINT,
  YEAR_MODE_LABEL,
  type PhotoFilter,
  type PhotoSort,
  type YearMode,
} from './library/labels';
import { usePhotoList } from './library/usePhotoList';
import { useGridSelection } from './library/useGridSelection';
import { useImport } from './library/useImport';
import { useImportPanel } from './library/useImportPanel';
import { useLibraryView } from './library/useLibraryView';
import { PhotoGrid } from './library/PhotoGrid';
import { ImportPanel } from './library/ImportPanel';
import { ExportDialog } from './library/ExportDialog';
import { IncludeCluesToggle } from './library/IncludeCluesToggle';
import { BulkRerun } from './library/BulkRerun';
import { BulkReview } from './library/BulkReview';
import { RemovalNotice, RemoveButton, useRemoval } from './library/RemovePhotos';
import { LocateSelected, MissingFolders } from './library/MissingFolders';
import { firstToReview } from './photo/useReviewQueue';
import { useSession, useSessionStore } from '../session/session';

/** `exportRequest`: counts File → Export… in the desktop menu; each new value opens the export dialog. */
export function LibraryScreen({ active = true, exportRequest = 0 }: { active?: boolean; exportRequest?: number }) {
  const session = useSessionStore();
  const view = useLibraryView(session);
  const { sort, setSort, filter, setFilter, searchText, setSearchText, search } = view;
  const { yearFromText, setYearFromText, yearToText, setYearToText, yearMode, setYearMode } = view;
  const { includeClues, setIncludeClues, yearFrom, yearTo, yearsBad, yearsActive, query, settling } = view;
  const list = usePhotoList(query);
  const selection = useGridSelection(list.rows, list.total, list.indexOf);
  const imp = useImport();
  const electron = client.transport.kind === 'electron';

  const panel = useImportPanel(imp, electron);

  const open = useCallback((id: number) => navigate(`/photo/${id}`), []);

  // The grid's order for the photo screen's previous/next; its focus follows the photo opened.
  useEffect(() => session.set({ libraryOrder: { rows: list.rows, total: list.total } }), [session, list.rows, list.total]);
  useEffect(() => () => session.set({ libraryOrder: { rows: [], total: 0 } }), [session]);
  const openedPhoto = useSession((st) => st.openedPhoto);
  const latest = useRef({ list, selection });
  latest.current = { list, selection };
  useEffect(() => {
    const { list: l, selection: sel } = latest.current;
    const i = openedPhoto == null ? -1 : l.indexOf(openedPhoto);
    if (i < 0) return;
    sel.setFocus(i);
    l.ensure(i + 100);
  }, [openedPhoto]);

  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    if (exportRequest > 0) setExporting(true);
  }, [exportRequest]);

  // Review mode: the first photo that needs review, then step through those.
  const [reviewMsg, setReviewMsg] = useState<string>();
  const startReview = async () => {
    setReviewMsg(undefined);
    session.set({ reviewSort: sort });
    const first = await firstToReview(sort);
    if (first.error) return setReviewMsg(first.error);
    if (first.id == null) return setReviewMsg('Nothing needs review: every finding has been accepted or rejected.');
    navigate(`/review/${first.id}`);
  };

  // What a bulk action acts on is what the archivist can see: selected photos that the search,
  // filter or years now hide stay selected (they come back when the search is cleared) but are
  // left out, and the bar says so.
  const { selected } = selection;
  const shownBefore = useRef<ReadonlySet<number>>(new Set());
  const shown = useMemo(() => {
    const now = [...selected].filter((id) => list.indexOf(id) >= 0);
    const before = shownBefore.current;
    // The same photos as before stay the same set (what depends on it is not reset by a reload).
    if (now.length === before.size && now.every((id) => before.has(id))) return before;
    return (shownBefore.current = new Set(now));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- indexOf reads the rows just loaded
  }, [selected, list.rows, list.indexOf]);
  const hidden = selected.size - shown.size;

  const removal = useRemoval();

  const libraryEmpty = list.ready && !list.error && list.total === 0 && filter === 'all' && !search.trim() && !yearsActive;
  const noMatches = list.ready && !list.error && list.total === 0 && !libraryEmpty;
  const running = imp.running ? imp.progress! : null;

  return (
    <section className="screen library-screen" aria-labelledby="library-title" {...panel.dropHandlers}>
      <header className="screen-head">
        <h1 id="library-title" tabIndex={-1}>
          Library
        </h1>
        <div className="toolbar">
          <input
            type="search"
            className="search-input"
            placeholder="Search photos"
            aria-label="Search filenames, notes and text in photos"
            title="Searches filenames, your notes and the text OCR read in the photos"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && searchText) {
                e.preventDefault();
                setSearchText('');
              }
            }}
          />
          <select aria-label="Show" value={filter} onChange={(e) => setFilter(e.target.value as PhotoFilter)}>
            {(Object.keys(FILTER_LABEL) as PhotoFilter[]).map((f) => (
              <option key={f} value={f}>
                {FILTER_LABEL[f]}
              </option>
            ))}
          </select>
          <div className={`year-range${yearsBad ? ' has-error' : ''}`} role="group" aria-label="Estimated date between years">
            <select
              aria-label="Years mean"
              className="year-mode"
              value={yearMode}
              onChange={(e) => setYearMode(e.target.value as YearMode)}
              title={YEAR_MODE_HINT[yearMode]}
            >
              {(Object.keys(YEAR_MODE_LABEL) as YearMode[]).map((m) => (
                <option key={m} value={m}>
                  {YEAR_MODE_LABEL[m]}
                </option>
              ))}
            </select>
            <input
              type="number"
              inputMode="numeric"
              placeholder="from"
              aria-label="From year"
              value={yearFromText}
              onChange={(e) => setYearFromText(e.target.value)}
              title={YEAR_MODE_HINT[yearMode]}
            />
            <span aria-hidden="true">–</span>
            <input
              type="number"
              inputMode="numeric"
              placeholder="to"
              aria-label="To year"
              value={yearToText}
              onChange={(e) => setYearToText(e.target.value)}
              title={YEAR_MODE_HINT[yearMode]}
            />
          </div>
          <IncludeCluesToggle checked={includeClues} onChange={setIncludeClues} />
          <select aria-label="Sort by" value={sort} onChange={(e) => setSort(e.target.value as PhotoSort)}>
            {(Object.keys(SORT_LABEL) as PhotoSort[]).map((s) => (
              <option key={s} value={s}>
                {SORT_LABEL[s]}
              </option>
            ))}
          </select>
          <button onClick={() => void startReview()} title="Step through the photos whose evidence needs review">
            Review mode
          </button>
          <button className="primary" onClick={panel.show} aria-expanded={panel.open} aria-controls="import-panel">
            Import…
          </button>
        </div>
      </header>

      <div className={`library-body${panel.open ? ' with-panel' : ''}`}>
        {/* Busy while what was typed is not yet what the grid shows (a filter settling or loading). */}
        <div className="grid-pane" aria-busy={!list.ready || settling}>
          <div className="pane-head">
            <span className="pane-count" data-testid="photo-count" aria-live="polite">
              {list.ready || list.total
                ? list.exact
                  ? plural(list.total, 'photo')
                  : `${formatCount(list.total)}+ photos`
                : 'Loading…'}
              {filter !== 'all' && ` · ${FILTER_LABEL[filter]}`}
              {search.trim() && ` · matching “${search.trim()}”`}
              {yearsActive && ` · ${YEAR_MODE_LABEL[yearMode]} ${yearFrom ?? '…'}–${yearTo ?? '…'}`}
              {includeClues && (yearsActive || sort === 'date') && ' · clues counted'}
            </span>
            {list.total > 0 && (
              <button
                className="link-button"
                onClick={() => setExporting(true)}
                title="Export the selection, the photos shown, or the whole library as CSV, JSON or XMP sidecars"
              >
                Export…
              </button>
            )}
            {yearsBad && (
              <span className="error-text small" role="alert" data-testid="years-problem">
                {yearsBad}
              </span>
            )}
            {reviewMsg && (
              <span className="muted small" role="status">
                {reviewMsg}
              </span>
            )}
            {running && !panel.open && (
              <button className="link-button" onClick={panel.show}>
                Importing… {formatCount(Math.min(running.found, running.hashed + running.failed))} of {formatCount(running.found)}
              </button>
            )}
            {selection.selected.size > 0 ? (
              <div className="selection-bar" role="group" aria-label="Selected photos" data-testid="selection-bar">
                <span data-testid="selection-count">
                  <strong>{shown.size.toLocaleString()}</strong> selected
                  {hidden > 0 && (
                    <span
                      className="muted"
                      title="Selected before the search or filter changed; actions here leave them out"
                      data-testid="selection-hidden"
                    >
                      {' '}
                      (+{hidden.toLocaleString()} hidden, left out)
                    </span>
                  )}
                </span>
                <BulkReview selected={shown} selection={selection.selected} />
                <BulkRerun selected={shown} selection={selection.selected} />
                <LocateSelected selected={shown} rowOf={(id) => list.rows[list.indexOf(id)]} electron={electron} />
                <RemoveButton
                  count={shown.size}
                  busy={removal.busy}
                  onConfirm={() => void removal.remove([...shown]).then((ok) => ok && selection.clear())}
                />
                <button onClick={selection.clear}>Clear</button>
              </div>
            ) : (
              list.total > 0 && <span className="pane-hint">Shift-click selects a range · Ctrl-click adds · Enter opens</span>
            )}
          </div>
          <RemovalNotice removal={removal} />
          {filter === 'missing' && <MissingFolders electron={electron} />}
          {list.error && (
            <div className="flash flash-error pane-flash" role="alert">
              {list.error}{' '}
              <button className="link-button" onClick={list.reload}>
                Try again
              </button>
            </div>
          )}
          {libraryEmpty ? (
            <div className="library-empty">
              <p className="empty-title">This library has no photos yet.</p>
              <p>Import a folder of scans to start: Circa reads their metadata and makes previews while you browse.</p>
              <button className="primary" onClick={panel.show}>
                Import photos…
              </button>
              {electron && <p className="muted small">You can also drop files and folders here.</p>}
            </div>
          ) : noMatches ? (
            <div className="library-empty">
              <p className="empty-title">No photos match.</p>
              {search.trim() && !/[\p{L}\p{N}]/u.test(search) && (
                <p className="muted" data-testid="search-no-words">
                  Search looks for words and numbers in filenames, notes and text read from photos; “{search.trim()}” has none.
                </p>
              )}
              <button
                onClick={() => {
                  setFilter('all');
                  setSearchText('');
                  setYearFromText('');
                  setYearToText('');
                }}
              >
                Show all photos
              </button>
            </div>
          ) : (
            <PhotoGrid
              rows={list.rows}
              total={list.total}
              selection={selection}
              indexOf={list.indexOf}
              ensure={list.ensure}
              refreshRows={list.refreshRows}
              onOpen={open}
              queryKey={`${sort}|${filter}|${search}|${yearFrom ?? ''}|${yearTo ?? ''}|${yearMode}|${includeClues}`}
              active={active}
              label="Photos"
            />
          )}
        </div>
        {panel.open && (
          <div id="import-panel" className="import-panel-host" onKeyDown={(e) => e.key === 'Escape' && panel.close()}>
            <ImportPanel state={imp} electron={electron} onClose={panel.close} note={panel.note} />
          </div>
        )}
      </div>
      {exporting && (
        <ExportDialog
          selected={[...selection.selected]}
          query={query}
          shownTotal={list.total}
          shownExact={list.exact}
          filtered={filter !== 'all' || !!search.trim() || yearsActive}
          electron={electron}
          onClose={() => setExporting(false)}
        />
      )}
      {panel.dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div>
            {electron
              ? 'Drop files or folders to import them'
              : 'A browser cannot import dropped files: type the folder’s path instead'}
          </div>
        </div>
      )}
    </section>
  );
}
