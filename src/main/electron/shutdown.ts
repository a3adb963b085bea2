/**
 * Quitting, in one place, free of electron so it can be tested. Two kinds:
 * - user: Quit from the tray or menu, Cmd+Q. `before-quit` is held (preventDefault) while running
 *   jobs get a few seconds, their leases are released and the database is closed; then exit.
 * - system: logout, restart or shutdown. The OS allows little time and must never be blocked:
 *   macOS cancels a logout when `before-quit` is prevented, and Windows does not emit
 *   `before-quit` at all at session end. So powerMonitor `shutdown` (Linux, macOS) and the
 *   window's `query-session-end` / `session-end` (Windows) start a short close, and a
 *   `before-quit` during it is let through. SQLite in WAL mode keeps every committed write if the
 *   OS ends the process first; a lease that was not released lapses and is reclaimed.
 * Every handler asks `closing` first, so nothing touches a core that is closing.
 */
export type QuitReason = 'user' | 'system';

/** How long running jobs may finish, then how much longer close may take before we exit anyway. */
export const SHUTDOWN_TIMING: Record<QuitReason, { graceMs: number; deadlineMs: number }> = {
  user: { graceMs: 3000, deadlineMs: 6000 },
  system: { graceMs: 500, deadlineMs: 2000 },
};

export interface ShutdownDeps {
  /** Closes the core (releases leases, closes the database). Absent when no core was opened. */
  close: ((graceMs: number) => Promise<void>) | null;
  exit(code: number): void;
  log?: { error(msg: string): void };
  timing?: Record<QuitReason, { graceMs: number; deadlineMs: number }>;
}

export type ShutdownState = 'running' | 'closing' | 'closed';

export class Shutdown {
  private current: ShutdownState = 'running';
  private reason: QuitReason | null = null;
  private done: Promise<void> | null = null;

  constructor(private readonly deps: ShutdownDeps) {}

  get state(): ShutdownState {
    return this.current;
  }

  /** True from the first quit request on: handlers must not use the core any more. */
  get closing(): boolean {
    return this.current !== 'running';
  }

  /** Starts closing (once; later calls join it, and a system end shortens nothing already running). */
  begin(reason: QuitReason): Promise<void> {
    if (this.done) return this.done;
    this.reason = reason;
    this.current = 'closing';
    const { graceMs, deadlineMs } = (this.deps.timing ?? SHUTDOWN_TIMING)[reason];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.deps.log?.error(`closing took longer than ${deadlineMs} ms; exiting anyway`);
        resolve();
      }, deadlineMs);
    });
    const closed = (this.deps.close ? this.deps.close(graceMs) : Promise.resolve()).catch((err: unknown) => {
      this.deps.log?.error(`closing failed: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.done = Promise.race([closed, deadline]).then(() => {
      clearTimeout(timer);
      this.current = 'closed';
      this.deps.exit(0);
    });
    return this.done;
  }

  /** `before-quit`: whether to hold the quit until closing is done. Never during a system end. */
  beforeQuit(): 'prevent' | 'allow' {
    if (this.current === 'closed') return 'allow';
    if (this.reason === 'system') return 'allow';
    void this.begin('user');
    return 'prevent';
  }

  /** powerMonitor `shutdown`, `query-session-end`, `session-end`. */
  systemEnding(): void {
    void this.begin('system');
  }
}
