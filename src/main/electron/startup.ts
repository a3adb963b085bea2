/**
 * Startup sequencing, free of electron so it can be tested. `whenReady().then(start, fatal)`
 * misses a throw inside start() itself (the rejection lands on the promise `then` returns): the
 * app then has no window, no dialog, and still holds the single-instance lock. Here every
 * failure — before ready, a synchronous throw, an async rejection — reaches `fatal` exactly once.
 */
export function runStartup(opts: {
  whenReady: () => Promise<unknown>;
  start: () => void | Promise<void>;
  fatal: (err: unknown) => void;
}): Promise<void> {
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    opts.fatal(err);
  };
  return opts
    .whenReady()
    .then(() => opts.start())
    .catch(fail);
}

/** The message for the startup error dialog. */
export function startupErrorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text || 'An unknown error stopped Circa from starting.';
}
