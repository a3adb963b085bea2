/**
 * Which backups to keep: the newest of each of the last `daily` days that have a backup, and the
 * newest of each of the last `weekly` ISO weeks that have one (as restic's keep-daily and
 * keep-weekly). Only routine backups (manual, scheduled) rotate; a backup taken before a
 * migration or a restore is kept until the archivist deletes it. The newest verified backup is
 * never removed, whatever the policy says.
 */
import type { BackupReason } from './manifest';

export interface RotationCandidate {
  name: string;
  createdAt: number;
  reason: BackupReason;
  verified: boolean;
}

export interface RotationPolicy {
  keepDaily: number;
  keepWeekly: number;
}

const ROUTINE: ReadonlySet<BackupReason> = new Set(['manual', 'scheduled']);

function dayKey(t: number): string {
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/** ISO 8601 week (weeks start on Monday; week 1 holds the year's first Thursday), in local time. */
export function isoWeekKey(t: number): string {
  const src = new Date(t);
  const thursday = new Date(src.getFullYear(), src.getMonth(), src.getDate());
  thursday.setDate(thursday.getDate() + 3 - ((thursday.getDay() + 6) % 7)); // the Thursday of its week decides the year
  const week1 = new Date(thursday.getFullYear(), 0, 4);
  const week = 1 + Math.round(((thursday.getTime() - week1.getTime()) / 86_400_000 - 3 + ((week1.getDay() + 6) % 7)) / 7);
  return `${thursday.getFullYear()}-W${week}`;
}

function newestPerPeriod(sorted: RotationCandidate[], key: (t: number) => string, periods: number): string[] {
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const b of sorted) {
    const k = key(b.createdAt);
    if (seen.has(k)) continue;
    if (seen.size >= periods) break;
    seen.add(k);
    kept.push(b.name);
  }
  return kept;
}

export function planRotation(
  backups: readonly RotationCandidate[],
  policy: RotationPolicy,
): { keep: string[]; remove: string[] } {
  const routine = backups.filter((b) => ROUTINE.has(b.reason) && b.verified).sort((a, b) => b.createdAt - a.createdAt);
  const keep = new Set([
    ...newestPerPeriod(routine, dayKey, Math.max(0, policy.keepDaily)),
    ...newestPerPeriod(routine, isoWeekKey, Math.max(0, policy.keepWeekly)),
  ]);
  const newestVerified = [...backups].filter((b) => b.verified).sort((a, b) => b.createdAt - a.createdAt)[0];
  if (newestVerified) keep.add(newestVerified.name);
  const remove = routine.filter((b) => !keep.has(b.name)).map((b) => b.name);
  return { keep: backups.filter((b) => !remove.includes(b.name)).map((b) => b.name), remove };
}
