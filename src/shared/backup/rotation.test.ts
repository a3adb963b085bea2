import { describe, expect, it } from 'vitest';
import { describeRetention, isoWeekKey, planRotation, type RotationCandidate } from './rotation';

const DAY = 86_400_000;
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();
const b = (name: string, createdAt: number, reason: RotationCandidate['reason'] = 'scheduled', verified = true) => ({
  name,
  createdAt,
  reason,
  verified,
});

describe('isoWeekKey', () => {
  it('follows ISO 8601: weeks start on Monday and week 1 holds the first Thursday', () => {
    expect(isoWeekKey(at(2026, 1, 1))).toBe('2026-W1'); // a Thursday
    expect(isoWeekKey(at(2024, 12, 30))).toBe('2025-W1'); // a Monday in week 1 of 2025
    expect(isoWeekKey(at(2021, 1, 3))).toBe('2020-W53'); // a Sunday in 2020's last week
    expect(isoWeekKey(at(2026, 11, 30))).toBe(isoWeekKey(at(2026, 12, 6))); // Monday … Sunday
    expect(isoWeekKey(at(2026, 12, 6))).not.toBe(isoWeekKey(at(2026, 12, 7)));
  });
});

describe('planRotation', () => {
  it('keeps the newest of each of the last 7 days and of the last 4 weeks, removes the rest', () => {
    const start = at(2026, 9, 1);
    // Two backups a day for 60 days.
    const all = Array.from({ length: 120 }, (_, i) => b(`b${i}`, start + Math.floor(i / 2) * DAY + (i % 2) * 3600_000));
    const { keep, remove } = planRotation(all, { keepDaily: 7, keepWeekly: 4, keepMonthly: 0 });
    const newestOf = (key: (t: number) => string) => {
      const out = new Map<string, string>();
      for (const x of [...all].reverse()) if (!out.has(key(x.createdAt))) out.set(key(x.createdAt), x.name);
      return [...out.values()];
    };
    const expected = new Set([
      ...newestOf((t) => new Date(t).toDateString()).slice(0, 7),
      ...newestOf(isoWeekKey).slice(0, 4),
      'b118', // the two newest are always kept
    ]);
    expect(new Set(keep)).toEqual(expected);
    expect(keep.length).toBeGreaterThanOrEqual(10); // the last week's newest is also a daily one
    expect(keep).toContain('b119'); // the newest
    expect(remove).not.toContain('b119');
    expect(remove).toContain('b116'); // the older one of the day before
    expect(keep.length + remove.length).toBe(120);
  });

  it('never removes the newest verified backup, nor backups taken before a migration or a restore', () => {
    const all = [
      b('old-pre', at(2020, 1, 1), 'pre-migration'),
      b('old-restore', at(2020, 1, 2), 'before-restore', false),
      b('manual', at(2026, 1, 1), 'manual'),
      b('broken-newer', at(2026, 2, 1), 'manual', false),
    ];
    expect(planRotation(all, { keepDaily: 0, keepWeekly: 0, keepMonthly: 0 })).toEqual({
      keep: ['old-pre', 'old-restore', 'manual', 'broken-newer'],
      remove: [],
    });
  });

  it('with nothing to rotate, keeps everything', () => {
    expect(planRotation([], { keepDaily: 7, keepWeekly: 4, keepMonthly: 12 })).toEqual({ keep: [], remove: [] });
  });

  it('a second "Back up now" on the same day never removes the earlier backup (it used to: 1 older backup removed)', () => {
    const all = [b('morning', at(2026, 3, 2, 9), 'manual'), b('afternoon', at(2026, 3, 2, 15), 'manual')];
    expect(planRotation(all, { keepDaily: 7, keepWeekly: 4, keepMonthly: 12 }).remove).toEqual([]);
    // A third the same day: the oldest of the three goes, the last other one stays.
    const three = [...all, b('evening', at(2026, 3, 2, 20), 'manual')];
    expect(planRotation(three, { keepDaily: 7, keepWeekly: 4, keepMonthly: 12 }).remove).toEqual(['morning']);
  });

  it('keeps the newest of each of the last 12 months, as Time Machine thins older backups out', () => {
    const all = Array.from({ length: 18 }, (_, i) => b(`m${i}`, at(2025, 1 + i, 15)));
    const { keep, remove } = planRotation(all, { keepDaily: 0, keepWeekly: 0, keepMonthly: 12 });
    expect(keep).toEqual(all.slice(6).map((x) => x.name));
    expect(remove.sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });
});

describe('describeRetention', () => {
  it('says the rule Settings applies, before it acts', () => {
    expect(describeRetention({ keepDaily: 7, keepWeekly: 4, keepMonthly: 12 })).toBe(
      'After each backup, Circa keeps the newest backup of each of the last 7 days, of each of the last 4 weeks, of ' +
        'each of the last 12 months, and always the two most recent backups; other backups made by hand or on schedule ' +
        'are removed. Backups taken before an update or a restore are kept until you delete them.',
    );
    expect(describeRetention({ keepDaily: 1, keepWeekly: 0, keepMonthly: 0 })).toMatch(
      /^After each backup, Circa keeps the newest backup of each of the last 1 day, and always/,
    );
  });
});
