/**
 * The review decisions this window made, newest last, so Ctrl/Cmd+Z can take them back one by
 * one, across photos. Each entry remembers what the item was before; undoing reviews it back to
 * that (main records it in the audit ledger as an undo).
 */
import type { ReviewStatus } from './evidenceFormat';

export interface ReviewUndoEntry {
  id: number;
  photoId: number;
  previousStatus: ReviewStatus;
  previousNote: string | null;
  /** What the decision was, for the "Undone: …" message. */
  status: ReviewStatus;
}

const MAX = 200;
const stack: ReviewUndoEntry[] = [];

export function pushReview(entry: ReviewUndoEntry): void {
  stack.push(entry);
  if (stack.length > MAX) stack.shift();
}

export function popReview(): ReviewUndoEntry | undefined {
  return stack.pop();
}

/** Puts an entry back (its undo failed for a reason that may pass, e.g. a lost connection). */
export function restoreReview(entry: ReviewUndoEntry): void {
  stack.push(entry);
}

export function undoDepth(): number {
  return stack.length;
}
