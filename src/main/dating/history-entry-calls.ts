/** The contract calls for the archivist's own history entries (Settings → History). */
import { OwnHistoryEntries } from './own-history-entries';
import type { SettingsStore } from '../settings/settings';
import type { Handlers } from '../ipc/dispatcher';

export function historyEntryCalls(core: {
  settings: SettingsStore;
}): Pick<Handlers, 'historyEntries.list' | 'historyEntries.save'> {
  const own = new OwnHistoryEntries(core.settings);
  return {
    'historyEntries.list': () => own.view(),
    'historyEntries.save': ({ entries }) => own.save(entries),
  };
}
