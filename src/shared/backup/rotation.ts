/**
 * Which backups to keep, thinning older ones out as Time Machine does: the newest of each of the
 * last `daily` days that have a backup, of each of the last `weekly` ISO weeks and of each of the
 * last `monthly` months (restic's keep-daily/weekly/monthly). Only routine backups (manual,
 * scheduled) rotate; a backup taken before a migration or a restore is kept until the archivist
 * deletes it. The two newest verified backups are never removed, whatever the policy says: a
 * backup just made (a second "Back up now" the same day) never removes the last other one.
 * `describeRetention` words the same rule for Settings, so it is read before it acts.
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
  keepMonthly: number;
}

/** Months of monthly backups (no setting of its own: a year of monthly copies costs little). */
export const KEEP_MONTHLY = 12;

/** How many of the newest verified backups are kept whatever the policy. */
const ALWAYS_KEPT = 2;

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

function monthKey(t: number): string {
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth()}`;
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
    ...newestPerPeriod(routine, monthKey, Math.max(0, policy.keepMonthly)),
  ]);
  const verified = [...backups].filter((b) => b.verified).sort((a, b) => b.createdAt - a.createdAt);
  for (const b of verified.slice(0, ALWAYS_KEPT)) keep.add(b.name);
  const remove = routine.filter((b) => !keep.has(b.name)).map((b) => b.name);
  return { keep: backups.filter((b) => !remove.includes(b.name)).map((b) => b.name), remove };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The rule in words, as Settings shows it and a backup's summary repeats it. */
export function describeRetention(p: RotationPolicy): string {
  const tiers = [
    p.keepDaily > 0 && `each of the last ${plural(p.keepDaily, 'day')}`,
    p.keepWeekly > 0 && `each of the last ${plural(p.keepWeekly, 'week')}`,
    p.keepMonthly > 0 && `each of the last ${plural(p.keepMonthly, 'month')}`,
  ].filter(Boolean);
  const periods = tiers.length ? `the newest backup of ${tiers.join(', of ')}, and ` : '';
  return (
    `After each backup, Circa keeps ${periods}always the two most recent backups; other backups made by hand or on ` +
    'schedule are removed. Backups taken before an update or a restore are kept until you delete them.'
  );
}
