import { describe, expect, it } from 'vitest';
import { diagnosticJobTypes } from '../../../shared/jobs/types';
import type { AnyJobType } from '../../../shared/jobs/define';
import { AHEAD_MS, JobPace, MAX_PREFETCH } from './pace';

const single = diagnosticJobTypes['diag.noop_single'] as AnyJobType; // prefetch 2, hand-off 1
const batch = diagnosticJobTypes['diag.noop_batch'] as AnyJobType; // prefetch 8, hand-off 8
const sleep = diagnosticJobTypes['diag.sleep'] as AnyJobType; // prefetch 0

describe('JobPace', () => {
  it("holds the policy's prefetch until a duration is known, and for long jobs", () => {
    const pace = new JobPace();
    expect(pace.prefetch(single)).toBe(2);
    expect(pace.handOff(single)).toBe(1);
    expect(pace.handOff(batch)).toBe(8);
    pace.record('diag.noop_single', 1500); // an OCR-length job
    expect(pace.prefetch(single)).toBe(2);
    expect(pace.handOff(single)).toBe(1);
  });

  it('holds AHEAD_MS of short jobs, at most MAX_PREFETCH, and hands them over together', () => {
    const pace = new JobPace();
    pace.record('diag.noop_single', 2);
    expect(pace.prefetch(single)).toBe(AHEAD_MS / 2);
    expect(pace.handOff(single)).toBe(1 + AHEAD_MS / 2);
    pace.record('diag.noop_batch', 0.01);
    expect(pace.prefetch(batch)).toBe(MAX_PREFETCH);
    // Never fewer than the policy's own.
    pace.record('diag.noop_batch', AHEAD_MS / 4);
    for (let i = 0; i < 50; i++) pace.record('diag.noop_batch', AHEAD_MS / 4);
    expect(pace.prefetch(batch)).toBe(8);
  });

  it('never paces a type that holds nothing behind, and ignores durations that are not numbers', () => {
    const pace = new JobPace();
    pace.record('diag.sleep', 0.1);
    expect(pace.prefetch(sleep)).toBe(0);
    expect(pace.handOff(sleep)).toBe(1);
    pace.record('diag.noop_single', undefined);
    pace.record('diag.noop_single', Number.NaN);
    pace.record('diag.noop_single', -1);
    expect(pace.prefetch(single)).toBe(2);
  });

  it('follows a type whose jobs get longer', () => {
    const pace = new JobPace();
    pace.record('diag.noop_single', 0.1);
    expect(pace.prefetch(single)).toBe(MAX_PREFETCH);
    for (let i = 0; i < 40; i++) pace.record('diag.noop_single', 1000);
    expect(pace.prefetch(single)).toBe(2);
  });
});
