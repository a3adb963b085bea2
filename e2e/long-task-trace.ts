/**
 * What the renderer's long tasks are made of, from a Chromium performance trace (the timeline and
 * V8's sampling profiler): for each task over 50 ms on the page's main thread, the JavaScript
 * functions its samples were in (self time, and the first frame of our own code on the stack), and
 * the timeline events under it (layout, style, paint, GC, timers, message handlers). Used by
 * grid-frames.spec.ts when CIRCA_FRAMES_TRACE is set, to say why frames were lost, not just how many.
 */

import { splitLongTaskCpu, type LongTaskCpu, type TimelineEvent } from './long-task-cpu';

interface TraceEvent extends TimelineEvent {
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName?: string; url?: string; lineNumber?: number };
}

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
];

export interface LongTaskBreakdown {
  tasks: number;
  longestMs: number;
  /** Milliseconds of samples inside long tasks, by function (self time). */
  selfByFunction: [string, number][];
  /** Milliseconds inside long tasks, by the innermost frame of Circa's own code on the stack. */
  byOwnFrame: [string, number][];
  /** Milliseconds inside long tasks, by the module the sampled function is in (react-dom, zod, ours). */
  byModule: [string, number][];
  /** Milliseconds inside long tasks, by timeline event (children of the task). */
  byTimelineEvent: [string, number][];
  /** Wall time against the thread's CPU time, per task and in sum, and the CPU time by kind. */
  cpu: LongTaskCpu;
}

/** The bundle's module comments ('// src/renderer/…', '// node_modules/…'): which module a line is in. */
export function bundleModules(bundle: string): (line: number) => string {
  const starts: [number, string][] = [];
  bundle.split('\n').forEach((text, i) => {
    const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(text);
    if (m) starts.push([i, m[1]]);
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '(bundle)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

function top(m: Map<string, number>, n: number): [string, number][] {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, Math.round(v / 100) / 10]);
}

/** Reads a trace (Chromium's JSON) and breaks down the page's tasks over `overMs`. */
export function breakDownLongTasks(traceJson: string, moduleOf: (line: number) => string, overMs = 50): LongTaskBreakdown {
  const events = (JSON.parse(traceJson) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = (e: TraceEvent) => mainThreads.has(`${e.pid}:${e.tid}`);
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && onMain(e) && (e.dur ?? 0) > overMs * 1000);
  const inTask = (pid: number, tid: number, ts: number) =>
    tasks.some((t) => t.pid === pid && t.tid === tid && ts >= t.ts && ts <= t.ts + t.dur!);

  // Timeline events directly inside a long task (by name, with the handler's event type where there is one).
  const byEvent = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name === 'RunTask' || !onMain(e) || !inTask(e.pid, e.tid, e.ts)) continue;
    const data = e.args?.data ?? {};
    const what = typeof data.type === 'string' ? `${e.name}(${data.type})` : e.name;
    byEvent.set(what, (byEvent.get(what) ?? 0) + (e.dur ?? 0));
  }

  // V8's samples: a 'Profile' event starts a profile, 'ProfileChunk's carry its nodes and samples.
  const selfByFunction = new Map<string, number>();
  const byOwnFrame = new Map<string, number>();
  const byModule = new Map<string, number>();
  const where = ({ callFrame: f }: ProfileNode) =>
    f.url?.includes('/assets/') ? moduleOf(f.lineNumber ?? 0) : f.url ? f.url.split('/').pop()! : '(native)';
  const own = (n: ProfileNode) => where(n).startsWith('src/');
  const profiles = new Map<string, { pid: number; tid: number; t: number; nodes: Map<number, ProfileNode> }>();
  for (const e of events) {
    if (e.name === 'Profile' && e.id) {
      const start = (e.args?.data as { startTime?: number } | undefined)?.startTime ?? e.ts;
      profiles.set(`${e.pid}:${e.id}`, { pid: e.pid, tid: e.tid, t: start, nodes: new Map() });
      continue;
    }
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    if (!p || !mainThreads.has(`${p.pid}:${p.tid}`)) continue;
    const data = e.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const gap = deltas[i + 1] ?? deltas[i] ?? 0;
      p.t += deltas[i] ?? 0;
      if (!inTask(p.pid, p.tid, p.t)) continue;
      const node = p.nodes.get(samples[i]);
      if (!node) continue;
      const f = node.callFrame;
      const module = where(node);
      const name = `${f.functionName || '(anonymous)'} [${module}]`;
      selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + gap);
      byModule.set(module, (byModule.get(module) ?? 0) + gap);
      let mine: ProfileNode | undefined = node;
      while (mine && !own(mine)) mine = mine.parent ? p.nodes.get(mine.parent) : undefined;
      const mineName = mine ? `${mine.callFrame.functionName || '(anonymous)'} [${where(mine)}]` : '(none)';
      byOwnFrame.set(mineName, (byOwnFrame.get(mineName) ?? 0) + gap);
    }
  }
  return {
    tasks: tasks.length,
    longestMs: Math.round(Math.max(0, ...tasks.map((t) => t.dur! / 1000))),
    selfByFunction: top(selfByFunction, 25),
    byOwnFrame: top(byOwnFrame, 25),
    byModule: top(byModule, 15),
    byTimelineEvent: top(byEvent, 25),
    cpu: splitLongTaskCpu(events, mainThreads, overMs),
  };
}
