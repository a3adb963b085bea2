/**
 * The archivist's notes on the photo (searchable from the library). Saved when the field loses
 * focus or on Ctrl/Cmd+Enter, with quiet "Saved" feedback; a failed save keeps the text.
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';

type State = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** `onSaved`: a save is an action in the undo history (Ctrl+Z outside the field takes it back). */
export function NotesField({ photoId, notes, onSaved }: { photoId: number; notes: string; onSaved?: () => void }) {
  const [draft, setDraft] = useState(notes);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const saved = useRef(notes);
  const editing = useRef(false);
  const sectionRef = useRef<HTMLElement>(null);

  // Another photo, or the notes changed elsewhere while this field was not being edited.
  useEffect(() => {
    saved.current = notes;
    if (!editing.current) setDraft(notes);
  }, [notes]);
  useEffect(() => {
    editing.current = false;
    setDraft(notes);
    setState({ kind: 'idle' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [photoId]);

  const save = async () => {
    if (draft === saved.current) return;
    setState({ kind: 'saving' });
    const r = await client.call('photos.setNotes', { id: photoId, notes: draft });
    if (r.ok) {
      saved.current = r.value.notes;
      setState({ kind: 'saved' });
      onSaved?.();
    } else setState({ kind: 'error', message: r.error.message });
  };

  return (
    <section className="side-section notes-section" aria-labelledby="notes-title" tabIndex={-1} ref={sectionRef}>
      <div className="section-head">
        <h3 id="notes-title">
          <label htmlFor="photo-notes">Notes</label>
        </h3>
        <span className="small notes-state" role="status" data-testid="notes-state">
          {state.kind === 'saving' && <span className="muted">Saving…</span>}
          {state.kind === 'saved' && <span className="ok-text">Saved</span>}
          {state.kind === 'error' && <span className="error-text">Not saved: {state.message}</span>}
        </span>
      </div>
      <textarea
        id="photo-notes"
        className="notes-input"
        rows={3}
        maxLength={20_000}
        value={draft}
        placeholder="What you know about this photo: people, places, where the print came from…"
        onFocus={() => (editing.current = true)}
        onChange={(e) => {
          setDraft(e.target.value);
          if (state.kind !== 'idle') setState({ kind: 'idle' });
        }}
        onBlur={() => {
          editing.current = false;
          void save();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            // Leaves the field (saving it) for its section, not for <body>: the focus stays where
            // the archivist was, and a second Escape goes back to the library.
            e.preventDefault();
            sectionRef.current?.focus();
          }
        }}
      />
      <p className="muted small field-hint">Saved when you leave the field or press Ctrl+Enter. Searchable from the library.</p>
    </section>
  );
}
