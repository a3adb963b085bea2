/**
 * Multi-selection and keyboard focus for the grid. Both are kept by photo id (so they stay on the
 * same photo when new photos arrive above), with the index as a fallback for placeholders.
 */
import { useCallback, useRef, useState } from 'react';
import type { PhotoSummary } from '../../../../shared/contract';

interface Mark {
  index: number;
  id?: number;
}

export interface GridSelection {
  selected: ReadonlySet<number>;
  focusIndex: number;
  setFocus(index: number): void;
  /** A click with its modifiers: plain selects one, Ctrl/Cmd toggles, Shift selects a range. */
  click(index: number, mods: { shift: boolean; toggle: boolean }): void;
  /** Keyboard move; with Shift the selection becomes the range from the anchor. */
  moveTo(index: number, extend: boolean): void;
  toggleFocused(): void;
  selectAllLoaded(): void;
  clear(): void;
}

export function useGridSelection(rows: PhotoSummary[], total: number, indexOf: (id: number) => number): GridSelection {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [focus, setFocusMark] = useState<Mark>({ index: 0 });
  const anchor = useRef<Mark>({ index: 0 });
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const resolve = useCallback(
    (m: Mark) => {
      const at = m.id != null ? indexOf(m.id) : -1;
      return at >= 0 ? at : Math.max(0, Math.min(m.index, total - 1));
    },
    [indexOf, total],
  );
  const mark = useCallback((index: number): Mark => ({ index, id: rowsRef.current[index]?.id }), []);
  const range = useCallback((a: number, b: number): number[] => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    return rowsRef.current.slice(lo, Math.min(hi + 1, rowsRef.current.length)).map((p) => p.id);
  }, []);
  const focusIndex = resolve(focus);

  const setFocus = useCallback((index: number) => setFocusMark(mark(index)), [mark]);

  const click = useCallback(
    (index: number, mods: { shift: boolean; toggle: boolean }) => {
      const id = rowsRef.current[index]?.id;
      if (id == null) return;
      if (mods.shift) {
        const ids = range(resolve(anchor.current), index);
        setSelected((old) => new Set(mods.toggle ? [...old, ...ids] : ids));
      } else if (mods.toggle) {
        setSelected((old) => {
          const next = new Set(old);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        });
        anchor.current = mark(index);
      } else {
        setSelected(new Set([id]));
        anchor.current = mark(index);
      }
      setFocusMark(mark(index));
    },
    [resolve, mark, range],
  );

  const moveTo = useCallback(
    (index: number, extend: boolean) => {
      if (extend) setSelected(new Set(range(resolve(anchor.current), index)));
      else anchor.current = mark(index);
      setFocusMark(mark(index));
    },
    [resolve, mark, range],
  );

  const toggleFocused = useCallback(() => {
    const id = rowsRef.current[focusIndex]?.id;
    if (id == null) return;
    setSelected((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    anchor.current = mark(focusIndex);
  }, [focusIndex, mark]);

  const selectAllLoaded = useCallback(() => setSelected(new Set(rowsRef.current.map((p) => p.id))), []);
  const clear = useCallback(() => setSelected(new Set()), []);

  return { selected, focusIndex, setFocus, click, moveTo, toggleFocused, selectAllLoaded, clear };
}
