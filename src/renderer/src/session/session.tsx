/**
 * The window's session state, in one explicit store created at the app root (no module-level
 * singletons): what the library was showing (so it survives a visit to Jobs or Settings), the
 * order review mode steps in, whether the estimate's "Why" is open, and the library grid's
 * navigation handle, which the photo screen asks for the previous/next photo.
 *
 * The undo history is not here: it lives in main as audited actions (history.* calls), so it
 * survives a reload and two windows share one history instead of interleaving two.
 */
import { createContext, useContext, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { PhotoFilter, PhotoSort, YearMode } from '../screens/library/labels';

export interface LibraryView {
  sort: PhotoSort;
  filter: PhotoFilter;
  search: string;
  /** As typed (validated where used). */
  yearFrom: string;
  yearTo: string;
  yearMode: YearMode;
  /** Sort by date and filter by years with clue-only photos placed by their clues. */
  includeClues: boolean;
}

/** The library grid, mounted (hidden) under an open photo, answers these for the photo screen. */
export interface LibraryNav {
  neighbours(id: number): { prev?: number; next?: number; index?: number; total: number };
  /** Moves the grid's focus to this photo so that going back lands on it. */
  focusPhoto(id: number): void;
}

export interface SessionState {
  libraryView: LibraryView;
  /** Review mode steps through the photos that need review in this order (the library's, when it started). */
  reviewSort: PhotoSort;
  whyOpen: boolean;
  libraryNav: LibraryNav | null;
}

export const INITIAL_SESSION: SessionState = {
  libraryView: { sort: 'imported', filter: 'all', search: '', yearFrom: '', yearTo: '', yearMode: 'within', includeClues: false },
  reviewSort: 'imported',
  whyOpen: true,
  libraryNav: null,
};

export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();

  constructor(initial: SessionState = INITIAL_SESSION) {
    this.state = initial;
  }

  get = (): SessionState => this.state;

  set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((l) => l());
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const SessionContext = createContext<SessionStore | null>(null);

export function SessionProvider({ children, store }: { children: ReactNode; store?: SessionStore }) {
  const created = useRef<SessionStore | null>(null);
  created.current ??= store ?? new SessionStore();
  return <SessionContext.Provider value={created.current}>{children}</SessionContext.Provider>;
}

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSessionStore needs a <SessionProvider> above it (see App.tsx)');
  return store;
}

/** One slice of the session, re-rendering when it changes. */
export function useSession<T>(select: (s: SessionState) => T): T {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
