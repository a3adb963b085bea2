/**
 * After the connection to main comes back (browser mode: the server restarted, the network
 * blinked), everything on screen may be stale: events pushed while it was down were lost. So on
 * reconnect every screen re-reads what it shows: queries reload (useQuery), and this raises the
 * events main would have sent — "every photo changed", "backups changed", fresh job counts and the
 * running import — so hooks with their own paging (library grid, duplicates, evidence, undo) take
 * the same path they take for a pushed change.
 */
import type { Client } from './client';
import type { ConnectionState } from './transport';

/** Calls `listener` each time the connection is open again after having been lost. */
export function onReconnect(client: Client, listener: () => void): () => void {
  let lost = false;
  return client.transport.onState((state: ConnectionState) => {
    if (state === 'closed') lost = true;
    else if (state === 'open' && lost) {
      lost = false;
      listener();
    }
  });
}

/** Raises, locally, the events a screen needs to re-read everything it shows. */
export async function raiseRefreshEvents(client: Client): Promise<void> {
  client.raiseLocally('photos.changed', { ids: [], all: true });
  client.raiseLocally('backups.changed', {});
  const [counts, imported] = await Promise.all([client.call('jobs.counts', {}), client.call('photos.importStatus', {})]);
  if (counts.ok) client.raiseLocally('jobs.changed', { ...counts.value, changedIds: [] });
  if (imported.ok && imported.value) client.raiseLocally('import.progress', imported.value);
}
