/**
 * The photo screen's keyboard (outside text fields; listed in the README): A accept, R reject,
 * U / Backspace reset the highlighted finding; ↑ / ↓ move between findings; J / → next photo,
 * K / ← previous; Ctrl/Cmd+Z undoes the last action on this photo; Escape goes back; + / − zoom
 * the photo, 0 fits it, 1 shows it at actual size.
 */
import { useEffect, useRef } from 'react';
import type { ReviewStatus } from './evidenceFormat';

export interface PhotoKeyActions {
  back(): void;
  previous(): void;
  next(): void;
  /** -1: the finding above, +1: the one below. */
  move(step: -1 | 1): void;
  decide(status: ReviewStatus): void;
  undo(): void;
  zoom(how: 'in' | 'out' | 'fit' | 'actual'): void;
}

const isTextField = (t: EventTarget | null) => {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
};

/** Which action a key press asks for, or null (the key is left to the browser). */
export function photoKeyAction(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  a: PhotoKeyActions,
) {
  if (e.altKey) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if ((e.ctrlKey || e.metaKey) && key === 'z' && !e.shiftKey) return a.undo;
  if (e.ctrlKey || e.metaKey) return null;
  // "+" needs Shift on many keyboards; "=" is the same key.
  if (key === '+' || key === '=') return () => a.zoom('in');
  if (e.shiftKey) return null;
  const keys: Record<string, () => void> = {
    Escape: a.back,
    ArrowLeft: a.previous,
    k: a.previous,
    ArrowRight: a.next,
    j: a.next,
    ArrowUp: () => a.move(-1),
    ArrowDown: () => a.move(1),
    a: () => a.decide('accepted'),
    r: () => a.decide('rejected'),
    u: () => a.decide('pending'),
    Backspace: () => a.decide('pending'),
    '-': () => a.zoom('out'),
    '0': () => a.zoom('fit'),
    '1': () => a.zoom('actual'),
  };
  return keys[key] ?? null;
}

/** Listens on the window while mounted; always calls the latest `actions`. */
export function usePhotoKeys(actions: PhotoKeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      // Keys pressed in a dialog (Locate…) are the dialog's, not the photo's.
      if (e.defaultPrevented || isTextField(e.target) || (e.target as HTMLElement | null)?.closest?.('dialog')) return;
      const act = photoKeyAction(e, latest.current);
      if (!act) return;
      e.preventDefault();
      act();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
