/**
 * The long-task CPU split the grid-frames e2e prints (e2e/long-task-cpu.ts): wall against thread
 * time per task, and the CPU time given to script, layout, paint and GC by nested self time. A
 * hand-built trace in Chromium's event format, so every expected figure can be read off it.
 */
import { describe, expect, it } from 'vitest';
import { splitLongTaskCpu, type TimelineEvent } from '../../e2e/long-task-cpu';

const MAIN = { pid: 1, tid: 7 };
const ms = 1000;
const x = (name: string, ts: number, dur: number, tdur: number, at = MAIN): TimelineEvent => ({
  name,
  ph: 'X',
  ts: ts * ms,
  dur: dur * ms,
  tdur: tdur * ms,
  ...at,
});

describe('splitLongTaskCpu', () => {
  const events: TimelineEvent[] = [
    // A 120 ms task with 40 ms on the CPU: a script (30 ms CPU) that forces a layout (10) and a
    // minor GC (5), with an event this module does not know (2: counted as the script's), a paint (6).
    x('RunTask', 1000, 120, 40),
    x('FunctionCall', 1001, 90, 30),
    x('Layout', 1010, 20, 10),
    x('MinorGC', 1040, 8, 5),
    x('SomethingNew', 1060, 3, 2),
    x('Paint', 1100, 10, 6),
    // A 80 ms task that is nearly all its own CPU: style 60, the task's own overhead 10.
    x('RunTask', 2000, 80, 70),
    x('UpdateLayoutTree', 2001, 70, 60),
    // Not long: a 30 ms task; and a long task on another thread.
    x('RunTask', 3000, 30, 30),
    x('RunTask', 1000, 500, 500, { pid: 1, tid: 8 }),
    // Phases other than complete events and events without thread time are left out.
    { name: 'RunTask', ph: 'B', ts: 4000 * ms, pid: 1, tid: 7 },
    { name: 'RunTask', ph: 'X', ts: 5000 * ms, dur: 90 * ms, pid: 1, tid: 7 },
  ];
  const split = splitLongTaskCpu(events, new Set(['1:7']));

  it('splits each long task into CPU and waiting time, and the CPU by kind', () => {
    expect(split.longest).toEqual([
      {
        atMs: 0,
        wallMs: 120,
        cpuMs: 40,
        waitMs: 80,
        cpu: { script: 30 - 10 - 5, style: 0, layout: 10, paint: 6, gc: 5, other: 40 - 30 - 6 },
      },
      { atMs: 1000, wallMs: 80, cpuMs: 70, waitMs: 10, cpu: { script: 0, style: 60, layout: 0, paint: 0, gc: 0, other: 10 } },
    ]);
  });

  it('sums the tasks, and counts those long on their CPU time alone', () => {
    expect(split.sum).toEqual({
      tasks: 2,
      longOnCpuAlone: 1,
      wallMs: 200,
      cpuMs: 110,
      waitMs: 90,
      cpu: { script: 15, style: 60, layout: 10, paint: 6, gc: 5, other: 14 },
    });
    const kinds = Object.values(split.sum.cpu).reduce((a, b) => a + b, 0);
    expect(kinds).toBe(split.sum.cpuMs);
  });

  it('names the events the CPU time went to', () => {
    expect(split.selfCpuByEvent.slice(0, 3)).toEqual([
      ['UpdateLayoutTree', 60],
      ['RunTask', 14],
      ['FunctionCall', 13],
    ]);
    expect(split.selfCpuByEvent).toContainEqual(['SomethingNew', 2]);
  });
});
