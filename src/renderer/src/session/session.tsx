/**
 * The window's session state, in one explicit store created at the app root (no module-level
 * singletons): what the library was showing (so it survives a visit to Jobs or Settings), the
 * order review mode steps in, whether the estimate's "Why" is open, the grid's order (the photo
 * screen's previous/next) and the photo opened last (the grid's focus follows it). Data both ways:
 * no screen hands another a callback through here.
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

/** The grid's order as far as it has loaded it, and how many photos it shows in all. */
export interface LibraryOrder {
  rows: readonly { id: number }[];
  total: number;
}

/** Where `id` is in the grid's order, and the photos before and after it. */
export function neighbours(order: LibraryOrder, id: number): { prev?: number; next?: number; index?: number } {
  const i = order.rows.findIndex((p) => p.id === id);
  return i < 0 ? {} : { prev: order.rows[i - 1]?.id, next: order.rows[i + 1]?.id, index: i };
}

export interface SessionState {
  libraryView: LibraryView;
  /** Review mode steps through the photos that need review in this order (the library's, when it started). */
  reviewSort: PhotoSort;
  whyOpen: boolean;
  /** The library grid's rows in its order (what it has loaded), for the photo screen's previous/next. */
  libraryOrder: LibraryOrder;
  /** The photo the photo screen shows or showed last: going back, the grid's focus is on it. */
  openedPhoto: number | null;
}

export const INITIAL_SESSION: SessionState = {
  libraryView: { sort: 'imported', filter: 'all', search: '', yearFrom: '', yearTo: '', yearMode: 'within', includeClues: false },
  reviewSort: 'imported',
  whyOpen: true,
  libraryOrder: { rows: [], total: 0 },
  openedPhoto: null,
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
