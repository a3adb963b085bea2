/**
 * The worker's own word on its heap, so that main can tell running out of memory apart from a crash when
 * the process dies. An Electron utility process that exhausts its heap on Linux or macOS goes
 * through Chromium's OOM handler: no `error` event, no V8 report on stderr, and
 * `child-process-gone` says only `crashed`. What the process said about its heap just before
 * is the one signal that works on every platform and with either adapter.
 *
 * While a job runs the heap is read every WATCH_EVERY_MS (v8.getHeapStatistics: a few µs) and
 * sent once it passes REPORT_FROM of its limit (and once more when it drops back, so main's
 * record does not stay high). Pongs and progress carry it too. A handler that allocates without
 * ever yielding cannot be sampled: its last report is from before, and only the adapter's own
 * evidence (a forked child's stderr) can tell.
 */
import v8 from 'node:v8';
import type { HeapReport } from '../shared/worker-protocol';

const MB = 1024 * 1024;
/**
 * Reports are sent from this share of the heap limit up: main decides what is near the limit
 * (src/main/jobs/runner/worker-heap.ts). A job's heap is ~20 MB; a 1 GB worker reports from 256 MB.
 */
const REPORT_FROM = 0.25;
const WATCH_EVERY_MS = 100;

export function heapReport(): HeapReport {
  const s = v8.getHeapStatistics();
  return { usedMb: Math.round(s.used_heap_size / MB), limitMb: Math.round(s.heap_size_limit / MB) };
}

/** Samples the heap while a job runs; `send` gets a report whenever it is (or just stopped being) high. */
export class HeapWatch {
  private timer?: NodeJS.Timeout;
  private high = false;

  constructor(private readonly send: (report: HeapReport) => void) {}

  /** A job started: sample until `idle`. */
  busy(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sample(), WATCH_EVERY_MS);
    this.timer.unref();
  }

  idle(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
  }

  private sample(): void {
    const report = heapReport();
    const high = report.usedMb >= REPORT_FROM * report.limitMb;
    if (high || this.high) this.send(report);
    this.high = high;
  }
}
