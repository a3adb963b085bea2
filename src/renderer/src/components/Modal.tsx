/**
 * A modal dialog (the platform's <dialog>: focus stays inside, Escape closes). On close, focus goes
 * back to what opened it; React removes the dialog before the platform could restore it, which left
 * the focus on <body> (keys lost, a screen reader at the top of the page). If the opener is gone
 * too, the screen's heading takes it.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { restoreFocus } from './focus';

export function Modal({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (d && !d.open) d.showModal();
    return () => {
      d?.close();
      restoreFocus(opener);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby="modal-title"
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="panel-head">
        <h2 id="modal-title">{title}</h2>
        <button className="icon-button" onClick={onClose} aria-label="Close the dialog" title="Close">
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}
