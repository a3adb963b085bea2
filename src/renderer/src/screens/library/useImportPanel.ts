/**
 * The library's import panel as UI state, kept where it is drawn: whether it is open, the one-line
 * note above it, opening it once for a running import (closing it is respected), and files dropped
 * on the library (Electron gives their real paths; a browser cannot tell where a dropped file
 * lives, so it says so and leaves the path field to the archivist). The import itself is server
 * state, in the cache (useImport).
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { ImportState } from './useImport';

export interface ImportPanel {
  open: boolean;
  note: string | undefined;
  show(): void;
  close(): void;
  /** Files are being dragged over the library. */
  dragging: boolean;
  /** Spread on the element that takes drops. */
  dropHandlers: {
    onDragEnter(e: DragEvent): void;
    onDragOver(e: DragEvent): void;
    onDragLeave(e: DragEvent): void;
    onDrop(e: DragEvent): void;
  };
}

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');

export function useImportPanel(imp: ImportState, electron: boolean): ImportPanel {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);

  const openedFor = useRef<number | null>(null);
  const runningId = imp.running ? imp.progress!.id : null;
  useEffect(() => {
    if (runningId != null && openedFor.current !== runningId) {
      openedFor.current = runningId;
      setOpen(true);
    }
  }, [runningId]);

  const dropHandlers: ImportPanel['dropHandlers'] = {
    onDragEnter(e) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current++;
      setDragging(true);
    },
    onDragOver(e) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(e) {
      if (!hasFiles(e)) return;
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (!dragDepth.current) setDragging(false);
    },
    onDrop(e) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      setOpen(true);
      if (!electron || !window.circa?.pathForFile) {
        setNote('A browser cannot tell Circa where dropped files are. Type the folder’s path below instead.');
        return;
      }
      const paths = Array.from(e.dataTransfer.files)
        .map((f) => window.circa!.pathForFile(f))
        .filter(Boolean);
      if (!paths.length) return setNote('Nothing to import: what was dropped is not a file or folder on this computer.');
      setNote(undefined);
      if (imp.running) return setNote('An import is running; drop again when it has finished.');
      void imp.start(paths);
    },
  };

  return {
    open,
    note,
    show: () => {
      setNote(undefined);
      setOpen(true);
    },
    close: () => setOpen(false),
    dragging,
    dropHandlers,
  };
}
