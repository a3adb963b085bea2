/** Small helpers shared by the benchmarks (files starting with _ are not benchmarks). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** `--name value` from the benchmark's arguments, as a number. */
export function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The p-th percentile (nearest rank) of a list of numbers. */
export function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export interface UserWriteFigures {
  p50: number;
  p99: number;
  /**
   * p99 of the writes due after the writer's first second: the steady state, without the first
   * writes after launch (code compiled on first use) that `p99` keeps because a user meets them.
   */
  p99Steady: number;
  max: number;
  n: number;
  /** Slots dropped because the write before them was still running past them (userWritesAtSteadyRate). */
  skipped: number;
}
export type UserWriter = (() => Promise<UserWriteFigures>) & { samples(): number };

/**
 * A user write every 5 ms through the contract (photos.setNotes, handled in main like the UI's
 * requests), its latency measured from when it was due (a fixed schedule: a late write does not
 * push the next one back, so a writer that fell behind catches up back to back). Call the returned
 * function to stop; `.samples()` counts so far.
 */
export function userWritesEvery5ms(core: import('../src/main/core/core').Core): UserWriter {
  return userWrites(core, 5, true);
}

/**
 * A user at a steady rate: one photos.setNotes every `everyMs` on a fixed grid, each write's latency
 * measured from its slot. One person waits for an edit before the next, so a write that ends past
 * later slots is followed by one write at once (timed from the first slot it missed, so the wait
 * counts) and the other missed slots are dropped and counted, never caught up back to back: the
 * figure prices the app's answer to a user, not a burst no user makes.
 */
export function userWritesAtSteadyRate(core: import('../src/main/core/core').Core, everyMs: number): UserWriter {
  return userWrites(core, everyMs, false);
}

function userWrites(core: import('../src/main/core/core').Core, everyMs: number, catchUp: boolean): UserWriter {
  const firstId = core.db.sqlite.prepare('SELECT min(id) FROM photos').pluck().get() as number;
  const latencies: number[] = [];
  const steady: number[] = [];
  let skipped = 0;
  let writing = true;
  const startedAt = performance.now();
  const done = (async () => {
    let due = startedAt;
    let k = 0;
    while (writing) {
      due += everyMs;
      const slot = due;
      const late = performance.now() - due;
      if (late > 0 && !catchUp) {
        // The first slot missed is written now, timed from that slot; the ones after it are dropped.
        const missed = Math.floor(late / everyMs);
        skipped += missed;
        due += missed * everyMs;
      } else if (late < 0) await sleep(-late);
      const r = await core.dispatch('photos.setNotes', { id: firstId + (k++ % 1000), notes: `note ${k}` });
      if (!r.ok) throw new Error(r.error.message);
      const latency = performance.now() - slot;
      latencies.push(latency);
      if (slot - startedAt >= 1000) steady.push(latency);
    }
  })();
  const stop = async () => {
    writing = false;
    await done;
    return {
      p50: round(pct(latencies, 50)),
      p99: round(pct(latencies, 99)),
      p99Steady: round(pct(steady, 99)),
      max: round(Math.max(...latencies)),
      n: latencies.length,
      skipped,
    };
  };
  return Object.assign(stop, { samples: () => latencies.length });
}

/** The median (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Prints rows as aligned columns: the first left-aligned, the second right-aligned, the rest as is. */
export function table(rows: string[][]): void {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => (r[1] ?? '').length));
  for (const [a, b = '', ...rest] of rows) console.log([a.padEnd(w0), b.padStart(w1), ...rest].join('  ').trimEnd());
}

export async function waitUntil(fn: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
