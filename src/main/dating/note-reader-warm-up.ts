/**
 * Warms the note readers once, off the archivist's path. The readers of dates and named events in
 * a text (chrono's parsers, the history catalogue's word lists, their patterns) compile on first
 * use: the first note edit after launch cost ~133 ms and the second ~66 ms, against ~1.6 ms for
 * later ones (2,000 photos, quiet host), and were the worst user writes of every rebuild bench run.
 *
 * The warm-up reads a representative text through the very reader PhotoEdits is given (the
 * catalogue list is compiled per list of entries, so the archivist's own entries must be the ones
 * read with). It writes nothing. It runs at the first quiet moment after open: not before
 * WARM_UP_AFTER_MS (the screen's first reads come first), then only once no request came in for
 * QUIET_MS; a real reading before it makes it pointless, and it is given up. Main's OCR path reads
 * history in OCR text with the same catalogue reader and list (ocr-job.ts), and the caption panel
 * the same date reader (caption-dates.ts), so this one warm-up serves them too.
 */
import type { Cancel, Clock } from '../jobs/clock';
import type { Logger } from '../logger';
import type { UserActivity } from '../ipc/user-activity';

/**
 * Dates written several ways and named events, as a caption or note holds them. Twice: V8 compiles
 * a regular expression separately for text of one-byte characters (plain ASCII, Latin-1) and for
 * text with any other (a typographic quote or dash), and a note may be either.
 */
export const WARM_UP_TEXTS = [
  'Christmas 1925 at the farm, after the war. Postmarked Aug. 21, 1926; developed 3/4/1927. ' +
    "V-E Day parade, London, 8 May 1945 (summer of '46?), circa 1890s, not before 1906 March 17.",
  'Christmas 1925 at the farm — after the war. Postmarked Aug. 21, 1926; developed 3/4/1927. ' +
    'V-E Day parade, London, 8 May 1945 (summer of ’46?), circa 1890s, not before 1906 March 17.',
];
/**
 * Readings of each text: V8 runs a regular expression's first match in its interpreter and compiles
 * it to machine code on a later one, so a single reading left the second edit paying ~66 ms.
 */
export const WARM_UP_READINGS = 3;
/** The earliest the warm-up runs after open. */
export const WARM_UP_AFTER_MS = 1_000;
/** How long no request must have come in for main to count as quiet. */
export const QUIET_MS = 300;

export interface WarmedReader<T> {
  /** The reader itself, to be used in its place (a reading here makes the warm-up pointless). */
  read(text: string): T[];
  /** Stops a warm-up not yet run (the core closes). */
  cancel(): void;
}

export function warmedWhenQuiet<T>(
  reader: (text: string) => T[],
  deps: { activity: Pick<UserActivity, 'activeWithin'>; clock: Pick<Clock, 'after' | 'now'>; log: Logger },
): WarmedReader<T> {
  let pending: Cancel | null = null;
  // One reading per turn of the event loop, each in a quiet moment: the first costs ~90–120 ms
  // (every pattern compiled), the later ones ~45 ms and less, so a request that comes in meanwhile
  // waits behind one reading, not the ~200 ms of all of them.
  const readings = Array.from({ length: WARM_UP_READINGS }, () => WARM_UP_TEXTS).flat();
  let done = 0;
  let found = 0;
  let spentMs = 0;
  const schedule = (ms: number) => {
    pending = deps.clock.after(ms, attempt, { background: true });
  };
  const attempt = () => {
    pending = null;
    if (deps.activity.activeWithin(QUIET_MS)) return schedule(QUIET_MS);
    const started = deps.clock.now();
    try {
      found += reader(readings[done]).length;
    } catch (err) {
      deps.log.warn(`warming the date readers failed (the first note edit will do it): ${(err as Error).message}`);
      return;
    }
    spentMs += deps.clock.now() - started;
    if (++done < readings.length) return schedule(0);
    deps.log.info(`date readers warmed: ${found} findings in ${readings.length} readings, ${Math.round(spentMs)} ms`);
  };
  const cancel = () => {
    pending?.();
    pending = null;
  };
  schedule(WARM_UP_AFTER_MS);
  return {
    read(text) {
      cancel();
      return reader(text);
    },
    cancel,
  };
}
