/** Small display helpers shared by the screens. */
import { formatBytes as formatByteCount } from '../../shared/format-bytes';

export function formatTime(ms: number | null | undefined): string {
  if (!ms) return '—';
  const d = new Date(ms);
  const today = new Date();
  const sameDay = d.toDateString() === today.toDateString();
  return sameDay ? d.toLocaleTimeString() : d.toLocaleString();
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  return `${Math.round(m / 60)} h`;
}

export function relativeTo(ms: number, now = Date.now()): string {
  const diff = ms - now;
  return diff > 0 ? `in ${formatDuration(diff)}` : `${formatDuration(-diff)} ago`;
}

export const STATUS_LABEL: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  success: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function formatBytes(n: number | null | undefined): string {
  return n == null ? '—' : formatByteCount(n);
}

/** One formatter for counts: `n.toLocaleString()` builds one per call, and badges and counts redraw on every job event. */
const counts = new Intl.NumberFormat();

/** 12,345 in the archivist's locale. */
export function formatCount(n: number): string {
  return counts.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
