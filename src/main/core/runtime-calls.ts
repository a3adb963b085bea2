/**
 * The contract calls the runtime answers itself, knowing no feature: the app's health and the
 * job queue (list, retry, cancel, pause). Every other call belongs to a feature room (./features.ts).
 */
import type { Handlers } from '../ipc/dispatcher';
import { APP_VERSION } from '../app-version';
import type { CoreServices } from './services';
import { workerBudget } from '../../shared/worker-budget';
import { machineMemoryMb } from '../jobs/runner/worker-pool';

export function runtimeCalls(core: CoreServices) {
  return {
    'app.health': () => {
      const stats = core.runner?.getStats();
      // Without a runner here (jobs run elsewhere), what the budget would allow this machine.
      const memory = stats?.memory ?? workerBudget(core.settings.get().workerCount, machineMemoryMb());
      return {
        version: APP_VERSION,
        mode: core.mode === 'electron' ? 'electron' : 'browser',
        libraryDir: core.paths.dir,
        schemaVersion: core.db.migration.schemaVersion,
        uptimeMs: Date.now() - core.startedAt,
        workers: {
          alive: stats?.workersAlive ?? 0,
          configured: stats?.workersConfigured ?? 0,
          starting: stats?.workersStarting ?? 0,
          failed: stats?.workersFailed ?? 0,
        },
        paused: stats?.paused ?? false,
        workerMemory: { totalMb: memory.totalMb, workers: memory.workers, maxWorkers: memory.maxWorkers, heapMb: memory.heapMb },
      };
    },

    'jobs.list': (input) => core.jobs.list(input),
    'jobs.types': () => core.jobs.types(),
    'jobs.get': ({ id }) => core.jobs.get(id),
    'jobs.counts': () => core.jobChanges.state(),
    'jobs.enqueue': (input) => core.jobs.enqueue(input),
    'jobs.cancel': ({ id }) => core.jobs.cancel(id),
    'jobs.retry': ({ id, force }) => core.jobs.retry(id, { force }),
    'jobs.retryAllFailed': ({ types }) => core.jobs.retryAllFailed(types),
    'jobs.acknowledge': (target) => ({ acknowledged: core.jobs.acknowledge(target) }),
    'jobs.setPaused': ({ paused }) => {
      core.settings.setFlag('jobs.paused', paused);
      core.runner?.setPaused(paused);
      core.jobChanges.now();
      return { paused };
    },
  } satisfies Partial<Handlers>;
}
