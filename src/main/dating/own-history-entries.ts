/**
 * The archivist's own history entries, kept in the library's `settings` table (key
 * `history.ownEntries`) so they travel with the library: in every backup (a copy of the whole
 * database) and in a restore. Read beside Circa's catalogue wherever captions are read.
 *
 * A stored entry that no longer passes the schema (written by a newer Circa, or edited by hand) is
 * kept as it is and counted, never dropped: saving replaces only the readable list, and the
 * unreadable ones stay under their own key until the archivist decides.
 */
import {
  CATALOGUE_ENTRIES,
  HISTORY_CATALOGUE,
  HISTORY_CATALOGUE_VERSION,
  historyEntrySchema,
  ownHistoryEntriesSchema,
  type HistoryEntry,
  type OwnHistoryView,
  type ReadableEntry,
} from '../../shared/dating/history';
import type { SettingsStore } from '../settings/settings';

export const OWN_HISTORY_KEY = 'history.ownEntries';
const UNREADABLE_KEY = 'history.ownEntries.unreadable';

export class OwnHistoryEntries {
  /** Catalogue + own entries, rebuilt only when the stored list changes (the reader caches its patterns per list). */
  private cached: { raw: string; readable: readonly ReadableEntry[] } | null = null;

  constructor(private readonly settings: Pick<SettingsStore, 'getFlag' | 'setFlag'>) {}

  private stored(): { entries: HistoryEntry[]; unreadable: unknown[] } {
    const raw = this.settings.getFlag<unknown>(OWN_HISTORY_KEY, []);
    const entries: HistoryEntry[] = [];
    const unreadable: unknown[] = this.settings.getFlag<unknown[]>(UNREADABLE_KEY, []);
    for (const item of Array.isArray(raw) ? raw : []) {
      const parsed = historyEntrySchema.safeParse(item);
      if (parsed.success && !entries.some((e) => e.id === parsed.data.id)) entries.push(parsed.data);
      else unreadable.push(item);
    }
    return { entries, unreadable };
  }

  list(): HistoryEntry[] {
    return this.stored().entries;
  }

  view(): OwnHistoryView {
    const { entries, unreadable } = this.stored();
    return {
      entries,
      catalogue: { entries: HISTORY_CATALOGUE.length, version: HISTORY_CATALOGUE_VERSION },
      unreadable: unreadable.length,
    };
  }

  /** Replaces the list (validated again here: main trusts no caller). */
  save(entries: readonly HistoryEntry[]): OwnHistoryView {
    const valid = ownHistoryEntriesSchema.parse(entries);
    const { unreadable } = this.stored();
    if (unreadable.length) this.settings.setFlag(UNREADABLE_KEY, unreadable);
    this.settings.setFlag(OWN_HISTORY_KEY, valid);
    return this.view();
  }

  /** What the caption readers read: the catalogue, then the archivist's entries. */
  readable(): readonly ReadableEntry[] {
    const raw = JSON.stringify(this.settings.getFlag<unknown>(OWN_HISTORY_KEY, []));
    if (this.cached?.raw !== raw) {
      const own = this.list().map((entry): ReadableEntry => ({ entry, origin: 'own' }));
      this.cached = { raw, readable: own.length ? [...CATALOGUE_ENTRIES, ...own] : CATALOGUE_ENTRIES };
    }
    return this.cached.readable;
  }
}
