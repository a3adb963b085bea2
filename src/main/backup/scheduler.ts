/**
 * Scheduled backups while the app runs: daily or weekly (Settings), checked a minute after start
 * (out of the way of start-up work) — so a backup missed while the app was closed runs then — and
 * every few minutes after. A backup is
 * due when the newest verified one in the backup folder is older than the interval; a folder that
 * cannot be reached fails its job (a clear message on the Jobs page) and is tried again an hour
 * later, not every few minutes.
 */
import type { JobService } from '../jobs/service';
import type { SettingsStore } from '../settings/settings';
import type { Logger } from '../logger';
import { readBackupFolder } from '../../shared/node/backup-folder';
import type { BackupFolder } from './backup-folder';

const DAY = 86_400_000;
export const SCHEDULE_INTERVAL_MS = { daily: DAY, weekly: 7 * DAY } as const;
/** After a scheduled backup was tried (and maybe failed), wait this long before trying again. */
const RETRY_AFTER_MS = 60 * 60_000;

export type ScheduleCheck = 'off' | 'not_due' | 'waiting' | 'enqueued';

export class BackupScheduler {
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly o: {
      settings: SettingsStore;
      jobs: JobService;
      folder(): BackupFolder;
      log: Logger;
      now?: () => number;
      /** First check after start (the missed-schedule catch-up). */
      firstCheckMs?: number;
      checkEveryMs?: number;
    },
  ) {}

  start(): void {
    this.schedule(this.o.firstCheckMs ?? 60_000);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.check()
        .catch((err: unknown) => this.o.log.warn(`backup schedule check failed: ${(err as Error).message}`))
        .finally(() => this.schedule(this.o.checkEveryMs ?? 10 * 60_000));
    }, ms);
    this.timer.unref();
  }

  /** Enqueues a scheduled backup when one is due. */
  async check(): Promise<ScheduleCheck> {
    const { backupSchedule } = this.o.settings.get();
    if (backupSchedule === 'off') return 'off';
    const now = (this.o.now ?? Date.now)();
    const newest = await this.newestBackupAt();
    if (now - newest < SCHEDULE_INTERVAL_MS[backupSchedule]) return 'not_due';
    if (this.closed) return 'not_due';
    const [last] = this.o.jobs.queries.list({ types: ['backup'], limit: 1 }).rows;
    if (last && (last.status === 'queued' || last.status === 'running' || now - last.created_at < RETRY_AFTER_MS))
      return 'waiting';
    this.o.jobs.enqueue({ type: 'backup', payload: { reason: 'scheduled' } }, 'schedule');
    return 'enqueued';
  }

  private async newestBackupAt(): Promise<number> {
    try {
      const entries = await readBackupFolder(this.o.folder().dir);
      return entries.find((e) => e.verified)?.createdAt ?? 0;
    } catch {
      return 0; // unreachable or absent: due (its job will say why it cannot run)
    }
  }
}
