/**
 * Windows logoff, restart and shutdown, free of electron so it can be tested. Windows first asks
 * every app whether the session may end (`query-session-end`, WM_QUERYENDSESSION); another app can
 * still cancel the logoff after Circa answered, and Electron then emits nothing more. Only
 * `session-end` (WM_ENDSESSION: the session is ending) is final. So the query prepares, in a way
 * that can be undone — no new job is claimed, running ones go on — and `session-end` commits to
 * quitting (shutdown.ts's short system close). If no `session-end` follows within `resumeAfterMs`,
 * the logoff was cancelled and Circa carries on as the archivist left it.
 */
export interface SessionEndDeps {
  /** Stop claiming new jobs (reversible, not stored). */
  prepare(): void;
  /** Undo prepare(): claim jobs again unless the archivist had paused them. */
  resume(): void;
  /** The session is ending: quit now. */
  commit(): void;
  setTimer(cb: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  resumeAfterMs?: number;
}

/** Long enough for Windows' "apps are preventing sign-out" screen, short enough not to stall a batch for long. */
export const RESUME_AFTER_CANCELLED_LOGOFF_MS = 60_000;

export type SessionEndState = 'running' | 'prepared' | 'committed';

export class WindowsSessionEnd {
  private current: SessionEndState = 'running';
  private timer: unknown = null;

  constructor(private readonly deps: SessionEndDeps) {}

  get state(): SessionEndState {
    return this.current;
  }

  /** `query-session-end`: prepare, and resume if the session does not end after all. */
  querySessionEnd(): void {
    if (this.current === 'committed') return;
    if (this.current === 'running') {
      this.current = 'prepared';
      this.deps.prepare();
    }
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      if (this.current !== 'prepared') return;
      this.current = 'running';
      this.deps.resume();
    }, this.deps.resumeAfterMs ?? RESUME_AFTER_CANCELLED_LOGOFF_MS);
  }

  /** `session-end`: the session is ending (with or without a query before it). */
  sessionEnd(): void {
    if (this.current === 'committed') return;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    this.current = 'committed';
    this.deps.commit();
  }
}
