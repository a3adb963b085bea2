/**
 * CPU profiles for the import benchmark's `--profile DIR` (issue 31 item 4: profile the whole
 * import path, not only the worker's function): main profiled in-process through the inspector,
 * workers started with Node's own --cpu-prof, and a summary of where each process's time went —
 * idle, garbage collection, and the functions with the most self time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Starts profiling this process; the returned function stops and writes `file`. */
export async function profileThisProcess(file: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** The flags that make a forked Node process write its profile into `dir` when it exits. */
export const cpuProfFlags = (dir: string) => ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=500'];

/** A stretch of time on the monotonic clock profiles are stamped by (process.hrtime), in µs. */
export interface Window {
  fromUs: number;
  toUs: number;
}

/**
 * Self time by function (file:line), idle and GC as their own lines, sorted, in ms and share;
 * with `windows`, only the samples taken within them.
 */
export function summariseProfile(file: string, top = 14, windows?: readonly Window[]): string {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  let at = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    if (windows && !windows.some((w) => at >= w.fromUs && at <= w.toUs)) continue;
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    const f = byNode.get(p.samples[i])?.callFrame;
    if (!f) continue;
    const where = f.url ? `${path.basename(f.url.replace(/^file:\/\//, ''))}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  }
  const lines = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  const pc = (ms: number) => `${((100 * ms) / Math.max(1, total)).toFixed(1).padStart(5)} %`;
  return [
    `${path.basename(file)}: ${(total / 1000).toFixed(2)} s sampled`,
    ...lines.map(([k, ms]) => `  ${pc(ms)} ${ms.toFixed(0).padStart(6)} ms  ${k}`),
  ].join('\n');
}
