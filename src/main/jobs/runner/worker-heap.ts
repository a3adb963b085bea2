/**
 * A worker that dies with its heap near the limit ran out of memory, whatever its adapter saw.
 * On Linux and macOS an Electron utility process's heap OOM reads only as a crash (see
 * src/worker/heap-report.ts); the worker's last report of its own heap is what tells.
 */
import type { HeapReport } from '../../../shared/worker-protocol';
import type { WorkerExitKind } from '../worker-process';

/**
 * Near the limit: less than this share of it left (reports are samples taken every 100 ms while
 * a job runs, so one taken on the way up reads below what killed it; and a heap this full is no
 * state a healthy handler works in) — or less than the young generation's room. V8's
 * heap_size_limit counts the young generation (up to 48 MB on 64-bit) besides the old space that
 * `--max-old-space-size` sets, and an old-space OOM never fills it: a 64 MB worker dies at ~62 MB
 * of a 112 MB limit, a 1 GB one at ~1,000 MB of ~1,070 MB.
 */
const NEAR_SHARE = 0.3;
const YOUNG_GENERATION_ROOM_MB = 64;

export function nearHeapLimit(heap: HeapReport | null | undefined): heap is HeapReport {
  if (!heap || heap.limitMb <= 0) return false;
  return heap.limitMb - heap.usedMb <= Math.max(NEAR_SHARE * heap.limitMb, YOUNG_GENERATION_ROOM_MB);
}

/** How a process ended, given what it last said about its heap. */
export function exitKindWithHeap(kind: WorkerExitKind, heap: HeapReport | null | undefined): WorkerExitKind {
  return kind === 'crashed' && nearHeapLimit(heap) ? 'out_of_memory' : kind;
}

/** "heap 61 MB of 64 MB" when the worker said so, else the limit it was started with. */
export function describeHeap(heap: HeapReport | undefined, heapMb: number): string {
  return heap ? `heap ${heap.usedMb} MB of ${heap.limitMb} MB` : `heap limit ${heapMb} MB`;
}
