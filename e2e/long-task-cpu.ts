/**
 * Whether a long task was the page's own work or the page waiting for a CPU. Chromium's trace
 * events carry the thread's CPU time (`tdur`) beside the wall time (`dur`): a task whose wall time
 * is far above its CPU time spent the difference runnable but not running (on this 2-core machine,
 * behind the import's worker processes) or blocked. The CPU part is split by what ran it — script,
 * style, layout, paint, GC — from the self CPU time of the timeline events nested in the task.
 */

export interface TimelineEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
}

export type CpuKind = 'script' | 'style' | 'layout' | 'paint' | 'gc' | 'other';
const KINDS: CpuKind[] = ['script', 'style', 'layout', 'paint', 'gc', 'other'];

/** A timeline event's kind by its name; undefined: the kind of the event it is nested in. */
const KIND_BY_NAME: [RegExp, CpuKind][] = [
  [/GC|Sweep|Marking|Scavenge|Compaction|Finalize|ThreadState::/, 'gc'],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation)$/, 'style'],
  [/^(Layout|UpdateLayer|UpdateLayerTree|HitTest|IntersectionObserverController|ResizeObserver)/, 'layout'],
  [/^(Paint|PrePaint|PaintImage|Layerize|Commit|CompositeLayers|Decode|RasterTask|ImageDecode)/, 'paint'],
  [/^(FunctionCall|EvaluateScript|TimerFire|EventDispatch|FireAnimationFrame|RunMicrotasks|XHR|v8\.|V8\.|ParseHTML)/, 'script'],
];

function kindOf(name: string): CpuKind | undefined {
  return KIND_BY_NAME.find(([re]) => re.test(name))?.[1];
}

export interface TaskCpu {
  /** Milliseconds from the first long task's start. */
  atMs: number;
  wallMs: number;
  /** The renderer main thread's CPU time in the task. */
  cpuMs: number;
  /** Wall time not on a CPU: waiting to be scheduled, or blocked. */
  waitMs: number;
  cpu: Record<CpuKind, number>;
}

export interface LongTaskCpu {
  /** All long tasks; `longOnCpuAlone`: how many would still be over the limit on their CPU time alone. */
  sum: Omit<TaskCpu, 'atMs'> & { tasks: number; longOnCpuAlone: number };
  /** The longest tasks by wall time. */
  longest: TaskCpu[];
  /** Self CPU milliseconds inside long tasks by timeline event name, the largest first. */
  selfCpuByEvent: [string, number][];
}

const ms = (us: number) => Math.round(us / 100) / 10;
const emptyKinds = (): Record<CpuKind, number> => ({ script: 0, style: 0, layout: 0, paint: 0, gc: 0, other: 0 });

/**
 * Splits each 'RunTask' over `overMs` on the given threads into CPU and waiting time, and its
 * CPU time by kind. Events are nested by time on one thread; an event's self CPU time is its
 * `tdur` less its children's, given to its own kind or, for a name not known here, its parent's.
 */
export function splitLongTaskCpu(events: TimelineEvent[], threads: Set<string>, overMs = 50, keep = 20): LongTaskCpu {
  const byThread = new Map<string, TimelineEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || e.tdur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!threads.has(key)) continue;
    let list = byThread.get(key);
    if (!list) byThread.set(key, (list = []));
    list.push(e);
  }
  const tasks: TaskCpu[] = [];
  const selfByEvent = new Map<string, number>();
  let firstTs = Infinity;
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    // The open events around the current one: [event, its kind, its children's CPU so far].
    const stack: { e: TimelineEvent; kind: CpuKind; childCpu: number }[] = [];
    let task: { cpu: Record<CpuKind, number>; e: TimelineEvent } | null = null;
    const close = (upTo: number) => {
      while (stack.length && stack[stack.length - 1].e.ts + stack[stack.length - 1].e.dur! <= upTo) {
        const open = stack.pop()!;
        const self = Math.max(0, open.e.tdur! - open.childCpu);
        if (stack.length) stack[stack.length - 1].childCpu += open.e.tdur!;
        if (!task) continue;
        task.cpu[open.kind] += self;
        selfByEvent.set(open.e.name, (selfByEvent.get(open.e.name) ?? 0) + self);
        if (open.e === task.e) {
          const t = task.e;
          firstTs = Math.min(firstTs, t.ts);
          const cpu = Object.fromEntries(KINDS.map((k) => [k, task!.cpu[k]])) as Record<CpuKind, number>;
          tasks.push({ atMs: t.ts, wallMs: t.dur!, cpuMs: t.tdur!, waitMs: Math.max(0, t.dur! - t.tdur!), cpu });
          task = null;
        }
      }
    };
    for (const e of list) {
      close(e.ts);
      const parentKind = stack.length ? stack[stack.length - 1].kind : 'other';
      const isLongTask = e.name === 'RunTask' && e.dur! > overMs * 1000 && !task;
      if (isLongTask) task = { cpu: emptyKinds(), e };
      stack.push({ e, kind: e.name === 'RunTask' ? 'other' : (kindOf(e.name) ?? parentKind), childCpu: 0 });
    }
    close(Infinity);
  }
  const sum = { tasks: tasks.length, longOnCpuAlone: 0, wallMs: 0, cpuMs: 0, waitMs: 0, cpu: emptyKinds() };
  for (const t of tasks) {
    sum.wallMs += t.wallMs;
    sum.cpuMs += t.cpuMs;
    sum.waitMs += t.waitMs;
    if (t.cpuMs > overMs * 1000) sum.longOnCpuAlone++;
    for (const k of KINDS) sum.cpu[k] += t.cpu[k];
  }
  const inMs = (t: Omit<TaskCpu, 'atMs'>) => ({
    wallMs: ms(t.wallMs),
    cpuMs: ms(t.cpuMs),
    waitMs: ms(t.waitMs),
    cpu: Object.fromEntries(KINDS.map((k) => [k, ms(t.cpu[k])])) as Record<CpuKind, number>,
  });
  return {
    sum: { tasks: sum.tasks, longOnCpuAlone: sum.longOnCpuAlone, ...inMs(sum) },
    longest: [...tasks]
      .sort((a, b) => b.wallMs - a.wallMs)
      .slice(0, keep)
      .map((t) => ({ atMs: ms(t.atMs - firstTs), ...inMs(t) })),
    selfCpuByEvent: [...selfByEvent.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([k, v]) => [k, ms(v)]),
  };
}
