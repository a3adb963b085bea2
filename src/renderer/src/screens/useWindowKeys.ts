/**
 * A screen's keyboard review (the photo screen's evidence, the Duplicates screen): one keydown
 * handler on the window, always the latest render's, that leaves typing alone — keys in text
 * fields, with Alt, or already handled elsewhere never reach it. Single characters arrive lower-cased.
 */
import { useEffect, useRef } from 'react';

export const isTextField = (t: EventTarget | null) => {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
};

export function useWindowKeys(handler: (e: KeyboardEvent, key: string) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || isTextField(e.target)) return;
      latest.current(e, e.key.length === 1 ? e.key.toLowerCase() : e.key);
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
