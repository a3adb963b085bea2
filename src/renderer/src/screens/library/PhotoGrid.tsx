/**
 * The virtualised thumbnail grid. Columns follow the pane's width (tiles of about 180 px); only the
 * rows in view (plus a little overscan) are in the DOM, so 100,000 photos scroll as smoothly as 100.
 * The scroll height is `total` rows from the start, and the rows in view ask the list to load up to
 * them. Keyboard: arrows (up/down by a row), Home/End, PageUp/PageDown, Shift to extend, Space,
 * Enter, Ctrl/Cmd+A, Escape.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { PhotoSummary } from '../../../../shared/contract';
import type { GridSelection } from './useGridSelection';
import { PendingTile, PhotoTile } from './PhotoTile';
import { useInView, useLiveTiles } from './useVisibleWork';

const MIN_TILE = 180;
const GAP = 14;
const PAD = 16;
const CAPTION = 48;

interface Props {
  rows: PhotoSummary[];
  total: number;
  selection: GridSelection;
  indexOf(id: number): number;
  ensure(lastIndex: number): void;
  /** Re-reads loaded rows whose tiles wait on a job (see useVisibleWork). */
  refreshRows(ids: number[]): void;
  onOpen(id: number): void;
  /** Changes when sort/filter/search change: scroll back to the top. */
  queryKey: string;
  /** The library is the visible screen (it stays mounted behind an open photo). */
  active: boolean;
  label: string;
}

export function PhotoGrid({ rows, total, selection, indexOf, ensure, refreshRows, onOpen, queryKey, active, label }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [hasFocus, setHasFocus] = useState(false);

  useLayoutEffect(() => {
    const el = scrollRef.current!;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const inner = Math.max(MIN_TILE, width - 2 * PAD);
  const cols = Math.max(1, Math.floor((inner + GAP) / (MIN_TILE + GAP)));
  const tile = Math.floor((inner - GAP * (cols - 1)) / cols);
  const rowHeight = tile + CAPTION + GAP;
  const rowCount = Math.ceil(total / cols);

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 3,
    paddingStart: PAD,
    paddingEnd: PAD,
    scrollPaddingStart: PAD,
    scrollPaddingEnd: PAD,
  });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstRow = items.length ? items[0].index : 0;
  const lastRow = items.length ? items[items.length - 1].index : 0;
  // Load up to two rows past what is in view.
  const wantUpTo = Math.min(total, (lastRow + 3) * cols) - 1;
  useEffect(() => ensure(Math.max(wantUpTo, cols * 6)), [wantUpTo, cols, ensure]);

  // The photos in view (and the few rows around them) get their jobs done first, and their tiles
  // follow their jobs' state.
  const inView = rows.slice(firstRow * cols, Math.min(total, (lastRow + 1) * cols));
  useInView(
    inView.map((p) => p.id),
    active,
  );
  useLiveTiles(
    inView.filter((p) => p.metadataStatus === 'pending').map((p) => p.id),
    refreshRows,
  );

  // Photos arriving or leaving above (new imports on top, a reload in another sort) must not move
  // what is in view: remember the first photo in view and where it was, and put it back there.
  // Only when that photo's index changed: appending pages must never fight the user's scrolling.
  // The scroll offset is kept from scroll events: reading el.scrollTop in an effect after React
  // changed the DOM forces a layout inside that task (the grid's longest tasks during an import).
  const scrollTop = useRef(0);
  const anchor = useRef<{ id: number; index: number; offset: number } | null>(null);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const a = anchor.current;
    if (!el || !a || scrollTop.current < rowHeight / 2) return;
    const at = indexOf(a.id);
    if (at < 0 || at === a.index) return;
    el.scrollTop = scrollTop.current = PAD + Math.floor(at / cols) * rowHeight - a.offset;
  }, [rows, indexOf, cols, rowHeight]);
  /** The first photo in view, and where it is, at this scroll offset. */
  const remember = () => {
    const topRow = Math.max(0, Math.floor((scrollTop.current - PAD) / rowHeight));
    const index = topRow * cols;
    const id = rows[index]?.id;
    anchor.current = id == null ? null : { id, index, offset: PAD + topRow * rowHeight - scrollTop.current };
  };
  useLayoutEffect(remember);
  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    scrollTop.current = e.currentTarget.scrollTop;
    remember();
  };

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [queryKey]);

  // Coming back from a photo: the grid has the keyboard again, on the photo that was open.
  const wasActive = useRef(active);
  useEffect(() => {
    if (active && !wasActive.current && total > 0) {
      virtualizer.scrollToIndex(Math.floor(selection.focusIndex / cols), { align: 'auto' });
      scrollRef.current?.focus({ preventScroll: true });
    }
    wasActive.current = active;
  }, [active, total, cols, selection.focusIndex, virtualizer]);

  const moveFocus = useCallback(
    (index: number, extend: boolean) => {
      const clamped = Math.max(0, Math.min(total - 1, index));
      selection.moveTo(clamped, extend);
      virtualizer.scrollToIndex(Math.floor(clamped / cols), { align: 'auto' });
    },
    [selection, total, cols, virtualizer],
  );

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!total) return;
    const mod = e.ctrlKey || e.metaKey;
    const f = selection.focusIndex;
    const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight) / rowHeight) - 1);
    let to: number;
    switch (e.key) {
      case 'ArrowRight':
        to = f + 1;
        break;
      case 'ArrowLeft':
        to = f - 1;
        break;
      case 'ArrowDown':
        to = f + cols < total ? f + cols : Math.floor(f / cols) < rowCount - 1 ? total - 1 : f;
        break;
      case 'ArrowUp':
        to = f - cols >= 0 ? f - cols : f;
        break;
      case 'Home':
        to = mod ? 0 : f - (f % cols);
        break;
      case 'End':
        to = mod ? total - 1 : Math.min(total - 1, f - (f % cols) + cols - 1);
        break;
      case 'PageDown':
        to = Math.min(total - 1, f + pageRows * cols);
        break;
      case 'PageUp':
        to = Math.max(f % cols, f - pageRows * cols);
        break;
      case ' ':
        e.preventDefault();
        selection.toggleFocused();
        return;
      case 'Enter': {
        const p = rows[f];
        if (p) {
          e.preventDefault();
          onOpen(p.id);
        }
        return;
      }
      case 'Escape':
        if (selection.selected.size) {
          e.preventDefault();
          selection.clear();
        }
        return;
      default:
        if (mod && e.key.toLowerCase() === 'a') {
          e.preventDefault();
          selection.selectAllLoaded();
        }
        return;
    }
    e.preventDefault();
    moveFocus(to, e.shiftKey);
  };

  // Stable for the memoised tiles; reads the selection of the latest render.
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  const onTileClick = useCallback(
    (index: number, e: React.MouseEvent) =>
      selectionRef.current.click(index, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey }),
    [],
  );

  const focusedPhoto = rows[selection.focusIndex];
  const focusedRendered = focusedPhoto && selection.focusIndex >= firstRow * cols && selection.focusIndex < (lastRow + 1) * cols;

  return (
    <div
      ref={scrollRef}
      className="photo-grid"
      tabIndex={0}
      role="listbox"
      aria-multiselectable="true"
      aria-label={label}
      aria-activedescendant={hasFocus && focusedRendered ? `photo-tile-${focusedPhoto.id}` : undefined}
      onKeyDown={onKeyDown}
      onScroll={onScroll}
      onFocus={() => setHasFocus(true)}
      onBlur={() => setHasFocus(false)}
      data-testid="photo-grid"
      data-columns={cols}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {width > 0 &&
          items.map((v) => {
            const start = v.index * cols;
            const end = Math.min(total, start + cols);
            const cells = [];
            for (let i = start; i < end; i++) {
              const p = rows[i];
              cells.push(
                p ? (
                  <PhotoTile
                    key={p.id}
                    photo={p}
                    index={i}
                    total={total}
                    selected={selection.selected.has(p.id)}
                    focused={hasFocus && i === selection.focusIndex}
                    onClick={onTileClick}
                    onOpen={onOpen}
                  />
                ) : (
                  <PendingTile key={`pending-${i}`} />
                ),
              );
            }
            return (
              <div
                key={v.key}
                className="photo-row"
                style={{
                  top: 0,
                  left: PAD,
                  right: PAD,
                  height: rowHeight - GAP,
                  transform: `translateY(${v.start}px)`,
                  gridTemplateColumns: `repeat(${cols}, ${tile}px)`,
                  columnGap: GAP,
                  ['--tile' as string]: `${tile}px`,
                }}
              >
                {cells}
              </div>
            );
          })}
      </div>
    </div>
  );
}
