/**
 * Owns the library's current core so that it can be replaced while the app runs: a restore closes
 * the core, swaps the database and opens a new core on it. The transports (the Electron window,
 * browser mode's server, the CLI) talk to the host, never to a core directly: calls are passed to
 * the current core (answered "unavailable" while a restore runs), pushed events come from
 * whichever core is current, and media are looked up in it.
 */
import { fail } from '../../shared/result';
import type { Dispatch } from '../ipc/dispatcher';
import type { MediaDeps } from '../media/media';
import type { Logger } from '../logger';
import { queueMissingThumbnails } from '../photos/thumbnail-check';
import { RestoreError, restoreLibrary, type RestoreReport } from '../backup/restore';
import type { Core, CoreOptions } from './core';
import { EventHub } from './event-hub';

/** What a transport needs of the app: the host, or a bare core in tests. */
export type CoreEndpoint = Pick<Core, 'dispatch' | 'events' | 'media'>;

export interface HostedRestoreReport extends RestoreReport {
  /** Photos whose thumbnail was missing, queued for their metadata job. */
  thumbnailsQueued: number;
}

type Open = (overrides: Partial<CoreOptions>) => Core;

export class CoreHost implements CoreEndpoint {
  readonly events = new EventHub();
  private core: Core | null = null;
  private unsubscribe: (() => void) | null = null;
  private restoring = false;

  /** Media are looked up in whichever core is current. */
  readonly media: MediaDeps;

  constructor(
    private readonly openCore: Open,
    private readonly o: { log: Logger; nativeBinding?: string },
  ) {
    const current = () => this.current;
    // Every field read from whichever core is current (a Proxy, so a field added to MediaDeps
    // is never forgotten here: tiles once went unserved for want of one).
    this.media = new Proxy({} as MediaDeps, {
      get: (_target, key) => Reflect.get(current().media, key),
      has: (_target, key) => Reflect.has(current().media, key),
    });
  }

  /** Opens the library (the first time, and again after a restore). */
  open(): Core {
    const core = this.openCore({ restore: (file) => this.restore(file) });
    this.core = core;
    this.unsubscribe = core.events.subscribe((name, payload) => this.events.emit(name, payload));
    return core;
  }

  /** The current core, or null while a restore replaces it (or after close). */
  get live(): Core | null {
    return this.core;
  }

  get current(): Core {
    if (!this.core) throw new Error(this.restoring ? 'The library is being restored' : 'The library is closed');
    return this.core;
  }

  readonly dispatch: Dispatch = async (name, input) => {
    if (!this.core) {
      return fail(
        'unavailable',
        this.restoring ? 'The library is being restored; try again in a moment' : 'The library is closed',
      );
    }
    return this.core.dispatch(name, input);
  };

  /** Replaces the library with the backup `file` (see ../backup/restore.ts). */
  async restore(file: string): Promise<HostedRestoreReport> {
    if (this.restoring) throw new RestoreError('A restore is already running');
    const core = this.current;
    this.restoring = true;
    try {
      const report = await restoreLibrary({
        file,
        paths: core.paths,
        nativeBinding: this.o.nativeBinding,
        log: this.o.log,
        closeLive: () => this.closeCurrent(),
        openLive: () => void this.open(),
      });
      const thumbnailsQueued = await queueMissingThumbnails(this.current, 'restore');
      const fresh = this.current;
      this.events.emit('photos.changed', { ids: [], all: true });
      fresh.jobChanges.now();
      this.events.emit('backups.changed', {});
      return { ...report, thumbnailsQueued };
    } finally {
      this.restoring = false;
    }
  }

  private async closeCurrent(graceMs = 5_000): Promise<void> {
    const core = this.core;
    this.core = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await core?.close(graceMs);
  }

  async close(graceMs?: number): Promise<void> {
    await this.closeCurrent(graceMs);
  }
}
