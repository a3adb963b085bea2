/**
 * Where a machine's CPU went while a spec ran, by process kind: Circa's main (the browser-mode
 * server), its job workers, Chromium's renderer, GPU and browser processes, and Playwright. A
 * renderer task that waits for a CPU (long-task-cpu.ts) waits behind these; this says which of them
 * held the CPUs, and at what OS priority. Linux only (it reads /proc); null elsewhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import { processStat } from '../test/support/process-stat';

export interface ProcessCpuRow {
  kind: string;
  processes: number;
  cpuSeconds: number;
  /** The processes' nice values when first seen (Chromium raises its GPU and browser processes'). */
  nice: number[];
}

export interface ProcessCpuReport {
  seconds: number;
  /** Cores the machine has: `seconds × cores` is all the CPU there was. */
  cores: number;
  rows: ProcessCpuRow[];
}

function kindOf(cmdline: string): string | null {
  if (/chrom(e|ium)/.test(cmdline)) {
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
    return `chromium ${type === 'utility' ? `utility (${/--utility-sub-type=([\w.]+)/.exec(cmdline)?.[1] ?? '?'})` : type}`;
  }
  if (!/\bnode\b/.test(cmdline)) return null;
  if (/playwright/.test(cmdline))
    return /workerProcessEntry/.test(cmdline) ? 'playwright worker (the spec)' : 'playwright runner';
  if (/serve\.js/.test(cmdline)) return 'circa main (browser-mode server)';
  if (/--name=/.test(cmdline)) return 'circa job worker';
  return null;
}

/** Starts sampling every `everyMs`; `stop()` ends it and reports each kind's CPU since the start. */
export function watchProcessCpu(everyMs = 500): { stop(): ProcessCpuReport } | null {
  if (process.platform !== 'linux') return null;
  const startedAt = Date.now();
  const atStart = new Map<string, number>();
  const seen = new Map<string, { kind: string; nice: number; last: number }>();
  const sample = (first: boolean) => {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const known = seen.get(pid);
      const stat = processStat(pid);
      if (!stat) continue;
      const now = { cpu: stat.cpuMs / 1000, nice: stat.nice };
      if (known) {
        known.last = now.cpu;
        continue;
      }
      let cmdline: string;
      try {
        cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        continue;
      }
      const kind = kindOf(cmdline);
      if (!kind) continue;
      seen.set(pid, { kind, nice: now.nice, last: now.cpu });
      atStart.set(pid, first ? now.cpu : 0); // a process born later counts from zero
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample(false);
      const rows = new Map<string, ProcessCpuRow>();
      for (const [pid, p] of seen) {
        const row = rows.get(p.kind) ?? { kind: p.kind, processes: 0, cpuSeconds: 0, nice: [] };
        row.processes++;
        row.cpuSeconds += p.last - (atStart.get(pid) ?? 0);
        if (!row.nice.includes(p.nice)) row.nice.push(p.nice);
        rows.set(p.kind, row);
      }
      return {
        seconds: Math.round((Date.now() - startedAt) / 100) / 10,
        cores: os.cpus().length,
        rows: [...rows.values()]
          .filter((r) => r.cpuSeconds >= 0.1)
          .map((r) => ({ ...r, cpuSeconds: Math.round(r.cpuSeconds * 10) / 10 }))
          .sort((a, b) => b.cpuSeconds - a.cpuSeconds),
      };
    },
  };
}
