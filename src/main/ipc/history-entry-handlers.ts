/** The contract calls for the archivist's own history entries (Settings → History). */
import { OwnHistoryEntries } from '../dating/own-history-entries';
import type { CoreServices } from '../core/services';
import type { Handlers } from './dispatcher';

export function historyEntryHandlers(core: CoreServices): Pick<Handlers, 'historyEntries.list' | 'historyEntries.save'> {
  const own = new OwnHistoryEntries(core.settings);
  return {
    'historyEntries.list': () => own.view(),
    'historyEntries.save': ({ entries }) => own.save(entries),
  };
}
