/** The implementation of every contract call, over the core's services. */
import type { Core } from '../core/core';
import { APP_VERSION } from '../core/core';
import type { Handlers } from './dispatcher';

export function createHandlers(core: Core): Handlers {
  return {
    'app.health': () => {
      const stats = core.runner?.getStats();
      return {
        version: APP_VERSION,
        mode: core.mode === 'electron' ? 'electron' : 'browser',
        libraryDir: core.paths.dir,
        schemaVersion: core.db.migration.schemaVersion,
        uptimeMs: Date.now() - core.startedAt,
        workers: { alive: stats?.workersAlive ?? 0, configured: stats?.workersConfigured ?? 0 },
        paused: stats?.paused ?? false,
      };
    },

    'settings.get': () => core.settings.get(),
    'settings.update': (patch) => core.settings.update(patch),

    'jobs.list': (input) => core.jobs.list(input),
    'jobs.types': () => core.jobs.types(),
    'jobs.get': ({ id }) => core.jobs.get(id),
    'jobs.counts': () => ({ counts: core.jobs.counts(), paused: core.runner?.paused ?? false }),
    'jobs.enqueue': (input) => core.jobs.enqueue(input),
    'jobs.cancel': ({ id }) => core.jobs.cancel(id),
    'jobs.retry': ({ id }) => core.jobs.retry(id),
    'jobs.retryAllFailed': ({ types }) => ({ requeued: core.jobs.retryAllFailed(types) }),
    'jobs.setPaused': ({ paused }) => {
      core.settings.setFlag('jobs.paused', paused);
      core.runner?.setPaused(paused);
      core.events.emit('jobs.changed', { counts: core.jobs.counts(), paused, changedIds: [] });
      return { paused };
    },
  };
}
